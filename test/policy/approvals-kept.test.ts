/**
 * Approvals outlive the daemon that took them (docs/policy.md, "Approvals"): they are kept in the journal
 * directory, the volume every replica mounts, so a restarted daemon and the replica that takes the lease over apply
 * the approved plan without a second approval — and only that plan: another checksum waits again, and a file that
 * was edited approves nothing. An approval is used up by the run that writes, not by a run the loss of the lease
 * cut off before its first write.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { CONFIG_DEFAULTS, type DocopsConfig } from '../../src/config/config.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { microTime, type LeaseRecord } from '../../src/daemon/ha/election.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { createLogger } from '../../src/log.js';
import { loadManifests } from '../../src/manifests/index.js';
import { APPROVALS_FILE } from '../../src/policy/approval-store.js';
import { loadPolicyPath } from '../../src/policy/load.js';
import { FakeScheduler, ORG, SUPPORT, startTestDaemon, teamYaml, testClientFactory } from '../daemon/helpers.js';
import { memoryLease } from '../daemon/memory-lease.js';
import { waitFor } from '../daemon/wait.js';
import { tempDir } from './helpers.js';

const APPROVER = 'approver-token-0123456789';
const POLICY = `rules:
  - name: auditors-team
    when: change.kind == "Team" && change.key == "Auditors"
    outcome: require-approval
    message: The Auditors team is changed only with an approval
`;
const tmp = tempDir('docops-approvals-kept-');
afterAll(() => tmp.remove());

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function world() {
  const sandbox = await startSandbox({ seed: 'demo' });
  const dir = mkdtempSync(join(tmpdir(), 'docops-kept-manifests-'));
  const journalDir = mkdtempSync(join(tmpdir(), 'docops-kept-journal-'));
  writeFileSync(join(dir, 'support.yaml'), SUPPORT);
  writeFileSync(join(dir, 'auditors.yaml'), teamYaml('Auditors', ['ada@acme.test']));
  const policy = await loadPolicyPath(tmp.write(`policy-${Math.random().toString(36).slice(2)}.yaml`, POLICY));
  cleanup.push(() => sandbox.close());
  return { sandbox, dir, journalDir, policy };
}
type World = Awaited<ReturnType<typeof world>>;

/**
 * Loads that fail while `crash.armed` (the daemon went away after the approval, before its run read anything), and
 * run `crash.before` once first (what happens between an approval and the run it starts).
 */
function crashableLoad() {
  const crash: { armed: boolean; before?: () => Promise<void> } = { armed: false };
  return {
    crash,
    loadManifests: (async (dir, kinds, options) => {
      const before = crash.before;
      crash.before = undefined;
      await before?.();
      if (crash.armed) throw new Error('the process went away before its run read anything');
      return loadManifests(dir, kinds, options);
    }) as typeof loadManifests,
  };
}

async function startOne(w: World, load = crashableLoad()) {
  const d = await startTestDaemon({
    files: {},
    dir: w.dir,
    running: w.sandbox,
    config: { policy: w.policy, approvals: { token: APPROVER }, journalDir: w.journalDir },
    deps: { env: { DOCOPS_TOKEN: w.sandbox.token }, loadManifests: load.loadManifests },
  });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await d.stop();
    stopped = true;
  };
  cleanup.push(stop);
  return { ...d, crash: load.crash, stop };
}

async function approve(url: string, checksum: string): Promise<number> {
  const res = await fetch(`${url}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${APPROVER}`, 'content-type': 'application/json' },
    body: JSON.stringify({ checksum, approver: 'ada' }),
  });
  return res.status;
}

async function auditors(sandbox: RunningSandbox): Promise<string[] | undefined> {
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

const waiting = (r: RunRecord): string => {
  expect(r.result).toBe('refused');
  return r.approval!.checksum;
};

/** A daemon that took an approval and went away before the run it started could read anything. */
async function approvedThenGone(w: World): Promise<string> {
  const first = await startOne(w);
  const checksum = waiting(first.daemon.runs.at(-1)!);
  first.crash.armed = true;
  const next = first.nextRun();
  expect(await approve(first.daemon.url, checksum)).toBe(202);
  expect((await next).result).toBe('invalid_manifests'); // its run never reached the API
  await first.stop();
  return checksum;
}

describe('approvals survive a restart', () => {
  it('a restarted daemon applies the approved plan without a second approval; a different plan waits again', async () => {
    const w = await world();
    const checksum = await approvedThenGone(w);
    expect(await auditors(w.sandbox)).toBeUndefined(); // nothing written yet

    const second = await startOne(w);
    const run = second.daemon.runs.at(-1)!;
    expect(run).toMatchObject({ result: 'success', reasons: ['start'] });
    expect(await auditors(w.sandbox)).toEqual(['ada@acme.test']);
    expect(second.logs.some((l) => l.msg === 'policy: the plan was approved; applying exactly it')).toBe(true);
    // Used up, on disk too (written once the run that applied it ended): the file keeps no approval to give.
    const given = () =>
      (JSON.parse(readFileSync(join(w.journalDir, APPROVALS_FILE), 'utf8')) as { state: { given: unknown[] } }).state
        .given;
    await waitFor(() => given().length === 0, 10_000, 'the used approval to leave the file');
    expect(second.daemon.approvals!.view()).toMatchObject({
      waiting: null,
      lastApplied: { checksum, by: 'token:ada' },
    });

    // Another plan (a second member for the team): it waits for an approval of its own.
    const next = second.nextRun();
    second.write('auditors.yaml', teamYaml('Auditors', ['ada@acme.test', 'bob@acme.test']));
    const other = waiting(await next);
    expect(other).not.toBe(checksum);
    expect(await auditors(w.sandbox)).toEqual(['ada@acme.test']);
  });

  it('an approvals file edited while the daemon was down approves nothing: refused, logged, the plan waits', async () => {
    const w = await world();
    const checksum = await approvedThenGone(w);
    const file = join(w.journalDir, APPROVALS_FILE);
    writeFileSync(file, readFileSync(file, 'utf8').replace('token:ada', 'token:mallory'));

    const second = await startOne(w);
    expect(waiting(second.daemon.runs.at(-1)!)).toBe(checksum);
    expect(await auditors(w.sandbox)).toBeUndefined();
    expect(
      second.logs.some(
        (l) => typeof l.msg === 'string' && /approvals file .* is refused: its MAC does not verify/.test(l.msg),
      ),
    ).toBe(true);
  });
});

describe('approvals survive a lease handover', () => {
  it('the replica that takes the lease over applies the plan the last leader took an approval for', async () => {
    const w = await world();
    const now = microTime(new Date());
    const free: LeaseRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };
    const lease = memoryLease(free);
    const replica = async (name: string, load = crashableLoad()) => {
      const logs: Record<string, unknown>[] = [];
      const config: DocopsConfig = {
        configFile: '',
        manifestsDir: w.dir,
        apiUrl: w.sandbox.url,
        concurrency: 2,
        mode: 'apply',
        prune: {},
        invite: false,
        listen: { host: '127.0.0.1', port: 0 },
        debounceMs: 50,
        retry: { ...CONFIG_DEFAULTS.retry },
        shutdownGraceMs: 10_000,
        logLevel: 'debug',
        journalDir: w.journalDir, // the volume both replicas mount
        sandbox: false,
        policy: w.policy,
        approvals: { token: APPROVER },
        ha: {
          mode: 'kubernetes',
          leaseName: 'docops',
          leaseDurationMs: 60_000,
          renewDeadlineMs: 40_000,
          retryPeriodMs: 50,
        },
      };
      const daemon = new Daemon(config, {
        env: { DOCOPS_TOKEN: w.sandbox.token, HOSTNAME: name },
        logger: createLogger({
          level: 'debug',
          format: 'json',
          stream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
        }),
        scheduler: new FakeScheduler(),
        defaultMetrics: false,
        createClient: await testClientFactory(),
        resolveSettings: async () => ({ baseUrl: w.sandbox.url, token: w.sandbox.token }),
        leaseLock: lease,
        loadManifests: load.loadManifests,
      });
      const runs: RunRecord[] = [];
      daemon.on('run', (r: RunRecord) => runs.push(r));
      let stopped = false;
      const stop = async () => {
        if (!stopped) await daemon.stop();
        stopped = true;
      };
      cleanup.push(stop);
      await daemon.start();
      return { daemon, runs, logs, load, stop, standby: () => daemon.readiness().body['standby'] === true };
    };

    // A leads: its plan waits. B stands by.
    const a = await replica('replica-a');
    await waitFor(() => a.runs.length > 0, 10_000, 'the first run of A, as leader');
    const checksum = waiting(a.runs[0]!);
    const b = await replica('replica-b');
    await waitFor(() => b.standby() && lease.record.holderIdentity.startsWith('replica-a'), 10_000, 'B standing by');

    // A takes the approval; before the run it starts writes anything, A loses the lease (another holder).
    a.load.crash.before = async () => {
      const t = microTime(new Date());
      await lease.update(
        { holderIdentity: 'other', leaseDurationSeconds: 60, acquireTime: t, renewTime: t, leaseTransitions: 1 },
        String(lease.version),
        new AbortController().signal,
      );
      await waitFor(a.standby, 10_000, 'A to see it lost the lease');
    };
    expect(await approve(a.daemon.url, checksum)).toBe(202);
    await waitFor(() => a.runs.length > 1, 10_000, 'the run the approval started');
    expect(a.runs[1]).toMatchObject({ result: 'interrupted', interruptedBy: 'lease', applied: 0 });
    expect(
      a.logs.some((l) => l.msg === 'the approved plan was not applied (nothing written): the approval stays'),
    ).toBe(true);
    expect(await auditors(w.sandbox)).toBeUndefined();
    await a.stop();

    // The lease comes free; B takes it and its first run as leader applies the approved plan.
    const t = microTime(new Date());
    await lease.update(
      { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: t, renewTime: t, leaseTransitions: 2 },
      String(lease.version),
      new AbortController().signal,
    );
    await waitFor(() => b.runs.length > 0, 10_000, 'the first run of B, as leader');
    expect(b.runs[0]).toMatchObject({ reasons: ['leader'], result: 'success' });
    expect(await auditors(w.sandbox)).toEqual(['ada@acme.test']);
    expect(b.daemon.approvals!.view().lastApplied).toMatchObject({ checksum, by: 'token:ada' });
  }, 60_000);
});
