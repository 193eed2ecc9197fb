import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { quickBuild } from './build.js';
import { teamTitles, teamYaml, writes } from './helpers.js';

let build: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  build = quickBuild();
  // The daemon entry point as the CLI runs it: `docops daemon …` → daemonCommand(argv, processIO()).
  writeFileSync(
    join(build, 'run-daemon.mjs'),
    "import { daemonCommand } from './dist/cli/commands/daemon.js';\nimport { processIO } from './dist/cli/io.js';\nprocess.exitCode = await daemonCommand(process.argv.slice(2), processIO());\n",
  );
  sandbox = await startSandbox({ seed: 'demo', faults: 'latency=100ms' });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('docops daemon as a process', () => {
  it('exits 0 on SIGTERM in the middle of an apply, finishing the step in flight and starting no other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docops-proc-'));
    mkdirSync(join(dir, 'manifests'));
    for (let i = 1; i <= 8; i++) writeFileSync(join(dir, 'manifests', `crew-${i}.yaml`), teamYaml(`Crew ${i}`));
    writeFileSync(
      join(dir, 'docops.yaml'),
      [
        'manifests: ./manifests',
        `apiUrl: ${sandbox.url}`,
        'listen: 127.0.0.1:0',
        'concurrency: 1',
        'journalDir: ./journal',
        '',
      ].join('\n'),
    );
    sandbox.resetStats();
    const child = spawn(
      process.execPath,
      [join(build, 'run-daemon.mjs'), '-c', join(dir, 'docops.yaml'), '--log-format', 'json'],
      {
        cwd: dir,
        env: { ...process.env, DOCOPS_TOKEN: sandbox.token, DOCOPS_API_URL: '', NO_COLOR: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const logs: Record<string, unknown>[] = [];
    const raw: string[] = [];
    for await (const line of createInterface({ input: child.stderr! })) {
      raw.push(line);
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      logs.push(entry);
      if (entry.msg === 'applied' && logs.filter((l) => l.msg === 'applied').length === 1) child.kill('SIGTERM');
    }
    const [code, signal] = await exited;
    expect({ code, signal }, raw.join('\n')).toEqual({ code: 0, signal: null });

    const applied = logs.filter((l) => l.msg === 'applied').length;
    expect(applied).toBeGreaterThanOrEqual(1);
    expect(applied).toBeLessThan(8); // it really was stopped mid-run
    expect(logs.some((l) => l.msg === 'apply stopped by shutdown')).toBe(true);
    expect(logs.find((l) => l.msg === 'stopped')).toMatchObject({ graceful: true });
    // Every write the daemon sent was answered and is a whole applied step: nothing half-done, nothing abandoned.
    expect(writes(sandbox)).toBe(applied);
    expect(sandbox.stats().byStatus['0']).toBeUndefined();
    expect((await teamTitles(sandbox)).filter((t) => t.startsWith('Crew '))).toHaveLength(applied);
  });
});
