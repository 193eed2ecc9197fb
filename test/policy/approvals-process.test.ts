/**
 * An approval survives the daemon's process (docs/policy.md, "Approvals"): `docops daemon` takes an approval
 * (POST /approve answers 202 once it is kept on disk) and is killed (SIGKILL) before its run could apply anything;
 * the next process, on the same journal directory, applies the approved plan without a second approval.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { quickBuild } from '../daemon/build.js';
import { ORG, SUPPORT, teamYaml } from '../daemon/helpers.js';
import { waitFor } from '../daemon/wait.js';

const APPROVER = 'approver-token-for-the-process-0123';
let build: string;
let sandbox: RunningSandbox;

beforeAll(async () => {
  build = quickBuild();
  writeFileSync(
    join(build, 'run-daemon.mjs'),
    "import { daemonCommand } from './dist/cli/commands/daemon.js';\nimport { processIO } from './dist/cli/io.js';\nprocess.exitCode = await daemonCommand(process.argv.slice(2), processIO());\n",
  );
  sandbox = await startSandbox({ seed: 'demo' });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(build, { recursive: true, force: true });
});

/** A daemon process and the JSON lines it logged so far. */
function daemonProcess(dir: string): { child: ChildProcess; logs: Record<string, unknown>[]; raw: string[] } {
  const child = spawn(
    process.execPath,
    [join(build, 'run-daemon.mjs'), '-c', join(dir, 'docops.yaml'), '--log-format', 'json'],
    {
      cwd: dir,
      env: {
        ...process.env,
        DOCOPS_TOKEN: sandbox.token,
        DOCOPS_APPROVER_TOKEN: APPROVER,
        DOCOPS_API_URL: '',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const logs: Record<string, unknown>[] = [];
  const raw: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    raw.push(line);
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not a log line
    }
  });
  return { child, logs, raw };
}

const logged = (logs: Record<string, unknown>[], msg: string) => logs.find((l) => l.msg === msg);

async function auditors(): Promise<string[] | undefined> {
  const get = async (path: string) =>
    (await (
      await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${sandbox.token}` } })
    ).json()) as {
      items: Record<string, unknown>[];
    };
  const team = (await get(`/orgs/${ORG}/teams?limit=1000`)).items.find((t) => t['title'] === 'Auditors');
  if (!team) return undefined;
  const members = await get(`/orgs/${ORG}/teams/${String(team['id'])}/members?limit=1000`);
  return members.items.map((m) => (m as { organization: { user: { email: string } } }).organization.user.email);
}

describe('docops daemon as a process: an approval outlives it', () => {
  it('killed after POST /approve answered 202, the next process applies the approved plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docops-approval-proc-'));
    mkdirSync(join(dir, 'manifests'));
    writeFileSync(join(dir, 'manifests', 'support.yaml'), SUPPORT);
    writeFileSync(join(dir, 'manifests', 'auditors.yaml'), teamYaml('Auditors', ['ada@acme.test']));
    writeFileSync(
      join(dir, 'policy.yaml'),
      'rules:\n  - name: auditors\n    when: change.kind == "Team" && change.key == "Auditors"\n    outcome: require-approval\n    message: needs an approval\n',
    );
    writeFileSync(
      join(dir, 'docops.yaml'),
      [
        'manifests: ./manifests',
        `apiUrl: ${sandbox.url}`,
        'listen: 127.0.0.1:0',
        'journalDir: ./journal',
        'debounceMs: 50',
        'policy: { path: ./policy.yaml }',
        '',
      ].join('\n'),
    );

    const first = daemonProcess(dir);
    await waitFor(
      () => logged(first.logs, 'the plan waits for approval; nothing written') !== undefined,
      30_000,
      () => `the plan to wait:\n${first.raw.join('\n')}`,
    );
    const checksum = (
      logged(first.logs, 'the plan waits for approval; nothing written')!['approval'] as { checksum: string }
    ).checksum;
    const url = first.logs.find((l) => typeof l.url === 'string')!.url as string;
    // Whatever run the approval starts cannot apply: the manifests do not load (nothing is sent).
    writeFileSync(join(dir, 'manifests', 'broken.yaml'), 'apiVersion: docops/v1\nkind: Team\nspec: {}\n');
    await waitFor(
      () => first.logs.some((l) => String(l.msg).startsWith('invalid manifest')),
      30_000,
      'the broken load',
    );
    const res = await fetch(`${url}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${APPROVER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checksum, approver: 'ada' }),
    });
    expect(res.status).toBe(202);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    expect(await auditors()).toBeUndefined();

    rmSync(join(dir, 'manifests', 'broken.yaml'));
    const second = daemonProcess(dir);
    try {
      await waitFor(
        () => logged(second.logs, 'reconcile applied') !== undefined,
        30_000,
        () => `the approved plan to be applied:\n${second.raw.join('\n')}`,
      );
      expect(logged(second.logs, 'policy: the plan was approved; applying exactly it')).toMatchObject({
        checksum,
        by: 'token:ada',
      });
      expect(logged(second.logs, 'the plan waits for approval; nothing written')).toBeUndefined();
      expect(await auditors()).toEqual(['ada@acme.test']);
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
