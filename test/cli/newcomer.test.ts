/**
 * A newcomer's first hour (issue 17): what a new user trips over, each as a test that fails on the old behaviour.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, type RetryNotice } from '../../src/api/client.js';
import { retryNotices } from '../../src/cli/connect.js';
import { daemonCommand } from '../../src/cli/commands/daemon.js';
import { createLogger } from '../../src/log.js';
import { main } from '../../src/cli/main.js';
import { startSandbox } from '@docops/sandbox';
import { LARGE_SEED_MEMBERS, parseSeed, sandboxCommand } from '../../packages/sandbox/src/cli.js';
import { BENCH_ORG, BENCH_SIZES } from '../../packages/sandbox/src/generated-org.js';
import { startTestDaemon, teamYaml } from '../daemon/helpers.js';
import { runCli } from './run-cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'docops-newcomer-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("README's one-shot commands on one sandbox", () => {
  it('run as written (plan, apply, plan with --sandbox-state FILE): the second plan sees the apply', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /One-shot commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((l) => l.replace(/#.*$/, '').trim())
      .filter((l) => /^npx docops (plan|apply) /.test(l));
    expect(commands.length).toBe(3);
    const state = join(scratch, 'demo.json');
    const results = [];
    for (const command of commands) {
      const argv = command
        .split(/\s+/)
        .slice(2)
        .map((a) => (a === 'demo.json' ? state : a));
      expect(argv).toContain('--sandbox-state');
      results.push(await runCli([...argv, '--log-level', 'silent']));
    }
    expect(results.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(results[0]!.stdout).toContain('to add');
    expect(results[2]!.stdout).toBe('No changes. Live state matches the manifests.\n');
  });
});

describe('a port already in use', () => {
  it('the daemon names --listen and DOCOPS_LISTEN', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const config = join(scratch, 'docops.yaml');
      const { writeFileSync, mkdirSync } = await import('node:fs');
      mkdirSync(join(scratch, 'm'), { recursive: true });
      writeFileSync(join(scratch, 'm', 'team.yaml'), teamYaml('Support'));
      writeFileSync(config, `manifests: ${join(scratch, 'm')}\nlisten: 127.0.0.1:${sandbox.port}\n`);
      const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: { DOCOPS_TOKEN: 't' } };
      const err = await daemonCommand(['-c', config, '--api-url', sandbox.url, '--log-level', 'silent'], io, {
        processSignals: false,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String(err)).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the address is in use/);
      expect(String(err)).toContain('--listen HOST:PORT');
      expect(String(err)).toContain('DOCOPS_LISTEN');
    } finally {
      await sandbox.close();
    }
  });

  it('the sandbox names --port', async () => {
    const taken = await startSandbox({ port: 0 });
    try {
      let stderr = '';
      const { Writable } = await import('node:stream');
      const sink = (f: (s: string) => void): NodeJS.WritableStream =>
        new Writable({ write: (c: Buffer, _e, cb) => (f(String(c)), cb()) });
      const code = await sandboxCommand(['--port', String(taken.port)], {
        stdout: sink(() => {}),
        stderr: sink((s) => (stderr += s)),
      });
      expect(code).toBe(1);
      expect(stderr).toContain('EADDRINUSE');
      expect(stderr).toContain('--port N');
    } finally {
      await taken.close();
    }
  });
});

describe('an unreachable API', () => {
  it('each retry is told as it happens: attempt, budget, wait and reason', async () => {
    const port = await closedPort();
    const notices: RetryNotice[] = [];
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      token: 't',
      sleep: async () => {},
      random: () => 0.5,
      onRetry: (n) => void notices.push(n),
    });
    await expect(client.get('/orgs/o/teams')).rejects.toThrow(/ECONNREFUSED/);
    await client.close();
    expect(notices.map((n) => `${n.attempt}/${n.maxAttempts} ${n.reason}`)).toEqual([
      '2/6 ECONNREFUSED',
      '3/6 ECONNREFUSED',
      '4/6 ECONNREFUSED',
      '5/6 ECONNREFUSED',
      '6/6 ECONNREFUSED',
    ]);
    expect(notices[0]).toMatchObject({ method: 'GET', path: '/orgs/o/teams', delayMs: 125 });
  });

  it('the CLI shows each retry once on stderr, however many requests fail together', () => {
    const lines: string[] = [];
    const logger = createLogger({ format: 'json', stream: { write: (l: string) => void lines.push(l) } });
    const notify = retryNotices(logger);
    for (const path of ['/a', '/b', '/c'])
      notify({ method: 'GET', path, attempt: 2, maxAttempts: 6, delayMs: 1234, reason: 'ECONNREFUSED' });
    notify({ method: 'GET', path: '/a', attempt: 3, maxAttempts: 6, delayMs: 2400, reason: 'ECONNREFUSED' });
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([
      'retrying 2/6 in 1.2 s: ECONNREFUSED',
      'retrying 3/6 in 2.4 s: ECONNREFUSED',
    ]);
  });

  it('the daemon logs a failed run as one line without a stack trace (the stack only at debug)', async () => {
    const port = await closedPort();
    const d = await startTestDaemon({
      files: { 'team.yaml': teamYaml('Support') },
      deps: { resolveSettings: async () => ({ baseUrl: `http://127.0.0.1:${port}/v1`, token: 't' }) },
    });
    try {
      const failed = d.logs.filter((l) => l.msg === 'reconcile failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ level: 50, errorType: 'ApiError' });
      expect(String(failed[0]!.error)).toContain('ECONNREFUSED');
      expect(JSON.stringify(failed[0])).not.toContain('    at ');
      const stack = d.logs.filter((l) => l.level === 20 && JSON.stringify(l).includes('    at '));
      expect(stack.length).toBeGreaterThan(0);
    } finally {
      await d.stop();
    }
  });
});

describe('on a terminal', () => {
  it('apply logs one line per applied step and shows progress while reading live state', async () => {
    let stderr = '';
    const code = await main(['apply', '-m', 'config.example/manifests', '--sandbox'], {
      stdout: { write: () => true, isTTY: false },
      stderr: { write: (c: string) => void (stderr += c), isTTY: true },
      env: { NO_COLOR: '1' },
    });
    expect(code).toBe(0);
    // eslint-disable-next-line no-control-regex -- the progress line redraws itself with \r ESC[K
    expect(stderr).toMatch(/\r\x1b\[KReading live state: \d+ reads?…/);
    const lines = stderr
      // eslint-disable-next-line no-control-regex -- drop the progress redraws
      .replace(/\r\x1b\[K[^\r\n[]*/g, '')
      .split('\n')
      .filter(Boolean);
    const applied = lines.filter((l) => l.includes('step applied'));
    expect(applied.length).toBeGreaterThan(5);
    // Each says what it changed (`+ Team org-demo/Security  title: …`), then the fields left for people.
    for (const l of applied)
      expect(l).toMatch(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: step applied [+~-] [A-Za-z]+ org-demo\/.+ \{"durationMs":\d+\}$/,
      );
    expect(applied).toContainEqual(
      expect.stringContaining('step applied ~ Members org-demo/frank@acme.test  role: "read" → "comment"'),
    );
    // Every line is a log entry: no field continuation lines.
    for (const l of lines) expect(l).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+: /);
  });

  it('JSON lines stay as they are', async () => {
    let stderr = '';
    await main(['plan', '-m', 'config.example/manifests', '--sandbox', '--log-format', 'json'], {
      stdout: { write: () => true },
      stderr: { write: (c: string) => void (stderr += c), isTTY: false },
      env: {},
    });
    const computed = stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'plan computed');
    expect(computed).toMatchObject({ level: 30, steps: expect.any(Number), unmanaged: expect.any(Number) });
  });
});

describe('docops sandbox --seed large[:MEMBERS]', () => {
  it('parses the seed', () => {
    expect(parseSeed('large')).toEqual({ large: BENCH_SIZES.members });
    expect(LARGE_SEED_MEMBERS).toBe(BENCH_SIZES.members);
    expect(parseSeed('large:250')).toEqual({ large: 250 });
    expect(parseSeed('demo')).toBe('demo');
    expect(() => parseSeed('large:0')).toThrow(/1\.\.1000000/);
    expect(() => parseSeed('huge')).toThrow(/large\[:MEMBERS\]/);
  });

  it("serves the benchmark's organization: export it, then plan shows no changes", async () => {
    const sandbox = await startSandbox({ seed: { large: 300 } });
    try {
      const env = { DOCOPS_TOKEN: sandbox.token };
      const out = join(scratch, 'bench-org');
      const exported = await runCli(
        ['export', '--org', BENCH_ORG, '-o', out, '--api-url', sandbox.url, '--log-level', 'silent'],
        env,
      );
      expect(exported.code, exported.stderr).toBe(0);
      const members = readFileSync(join(out, 'members.yaml'), 'utf8').match(/^\s+- email: /gm) ?? [];
      expect(members).toHaveLength(300);
      const plan = await runCli(['plan', '-m', out, '--api-url', sandbox.url, '--log-level', 'silent'], env);
      expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    } finally {
      await sandbox.close();
    }
  });
});
