/**
 * Two real daemon processes with `ha: {mode: kubernetes}` against one sandbox and one set of Lease endpoints
 * (lease-server.ts, answering as the API server does). Short timings (lease 3 s, renew deadline 2 s, retry
 * 0.5 s) and a slow sandbox (100 ms a request, one step at a time) so an apply is long enough to be cut.
 * Every wait is on an observable condition: logs, /readyz, the lease, the requests the replicas sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { quickBuild } from './build.js';
import { teamTitles, teamYaml } from './helpers.js';
import { startLeaseServer, type FakeLeaseServer, type LeaseEvent } from './lease-server.js';
import { startReplica, writesOf, type ProxiedRequest, type Replica } from './replicas.js';
import { waitFor } from './wait.js';

const LEASE_MS = 3000;
const RETRY_MS = 500;
const HA = [
  'concurrency: 1',
  'ha:',
  '  mode: kubernetes',
  '  leaseName: docops',
  `  leaseDurationMs: ${LEASE_MS}`,
  '  renewDeadlineMs: 2000',
  `  retryPeriodMs: ${RETRY_MS}`,
];
/** Generous: two replicas, a sandbox and vitest share two cores with the other test files. */
const WAIT = 60_000;
const CREATE_TEAM = 'PUT /v1/orgs/:organizationId/teams';

let build: string;
let sandbox: RunningSandbox;
let leases: FakeLeaseServer;
let replicas: Replica[] = [];
let requests: ProxiedRequest[] = [];

beforeAll(async () => {
  build = quickBuild();
  writeFileSync(
    join(build, 'run-daemon.mjs'),
    "import { daemonCommand } from './dist/cli/commands/daemon.js';\nimport { processIO } from './dist/cli/io.js';\nprocess.exitCode = await daemonCommand(process.argv.slice(2), processIO());\n",
  );
}, 60_000);

afterEach(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  replicas = [];
  await leases?.close();
  await sandbox?.close();
});

/**
 * Two replicas on one lease, the organization lacking `count` teams. Writing begins once one replica leads and
 * the other stands by (ready): the leader's first write waits at its proxy until then.
 */
async function twoReplicas(prefix: string, count: number): Promise<{ leader: Replica; follower: Replica }> {
  sandbox = await startSandbox({ seed: 'demo', faults: 'latency=100ms' });
  leases = await startLeaseServer();
  requests = [];
  let startWriting!: () => void;
  const writesFrom = new Promise<void>((r) => (startWriting = r));
  const manifests = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`t${i + 1}.yaml`, teamYaml(`${prefix} ${i + 1}`)]),
  );
  const common = { build, manifests, sandbox, leases, config: HA, requests, writesFrom };
  replicas = await Promise.all([
    startReplica({ ...common, name: 'replica-a' }),
    startReplica({ ...common, name: 'replica-b' }),
  ]);
  const [a, b] = replicas as [Replica, Replica];
  await waitFor(() => holder() !== '', WAIT, 'a leader');
  const [leader, follower] = holder().startsWith(`${a.name}-`) ? [a, b] : [b, a];
  await waitFor(async () => (await role(leader)) === 'leader', WAIT, 'the leader to say so');
  await waitFor(
    async () => follower.url() !== undefined && (await follower.get('/readyz')).status === 200,
    WAIT,
    'the follower to stand by, ready',
  );
  startWriting();
  return { leader, follower };
}

const applied = (r: Replica): number => r.logs.filter((l) => l.msg === 'applied').length;
const holder = (): string => String(leases.lease('docops', 'docops')?.spec.holderIdentity ?? '');
const leaseWrites = (replica: string): LeaseEvent[] =>
  leases.events.filter((e) => e.client === replica && (e.method === 'PUT' || e.method === 'POST') && e.status < 300);
/** Team creates the sandbox answered with success (a duplicate create would show as one more). */
const teamCreates = (): number =>
  sandbox.stats().requests.filter((r) => `${r.method} ${r.route}` === CREATE_TEAM && r.status >= 200 && r.status < 300)
    .length;
const role = async (r: Replica): Promise<unknown> =>
  r.url() === undefined ? undefined : ((await r.get('/readyz')).body.ha as { role?: string } | undefined)?.role;
/** The replica's runs since `from` (log index) that ended, by their final log line. */
const runEnded = (r: Replica, msg: RegExp, from = 0): boolean =>
  r.logs.slice(from).some((l) => typeof l.msg === 'string' && msg.test(l.msg));

async function converged(prefix: string, count: number): Promise<void> {
  const titles = (await teamTitles(sandbox)).filter((t) => t.startsWith(`${prefix} `));
  expect(titles.sort()).toEqual(Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).sort());
  expect(teamCreates()).toBe(count); // no duplicate create
}

describe('two daemon replicas electing a leader through a Lease', () => {
  it('killing the leader mid-apply: the follower takes over within the lease duration and the organization converges, no duplicate create', async () => {
    const { leader, follower } = await twoReplicas('Crew', 12);
    await waitFor(() => applied(leader) > 0, WAIT, 'the leader to apply a step');
    // The follower stands by: ready, saying so, and it wrote nothing.
    const standby = await follower.get('/readyz');
    expect(standby.status, JSON.stringify(standby.body)).toBe(200);
    expect(standby.body).toMatchObject({ ready: true, standby: true, ha: { role: 'follower' } });
    expect(writesOf(requests, follower.name)).toEqual([]);

    leader.child.kill('SIGKILL');
    const killedAt = performance.now();
    const appliedByLeader = applied(leader);
    expect(appliedByLeader).toBeLessThan(12); // it really was cut mid-apply
    await waitFor(async () => (await role(follower)) === 'leader', WAIT, 'the follower to take over');
    await waitFor(() => runEnded(follower, /^reconcile applied$/), WAIT, "the new leader's run");
    await converged('Crew', 12);

    const lastRenew = leaseWrites(leader.name).at(-1)!.at;
    const takeover = leaseWrites(follower.name)[0]!.at;
    // Never before the lease expired, and within the lease duration of the kill (plus one retry period to notice).
    expect(takeover).toBeGreaterThanOrEqual(lastRenew + LEASE_MS);
    expect(takeover - killedAt).toBeLessThan(LEASE_MS + RETRY_MS + 2000);
    // The new leader's first run was a full reconcile: it planned exactly what the old one left undone.
    const run = follower.logs.find((l) => l.msg === 'reconcile started');
    expect(run?.reasons).toEqual(['leader']);
    expect(follower.logs.find((l) => l.msg === 'reconcile applied')).toMatchObject({
      planned: 12 - teamCreatesBy(leader.name),
      failed: 0,
    });
    console.info(
      `HA kill: ${appliedByLeader} step(s) applied before SIGKILL; takeover ${Math.round(takeover - killedAt)} ms after the kill, ${Math.round(takeover - lastRenew)} ms after the last renew (lease ${LEASE_MS} ms)`,
    );
  }, 120_000);

  it('a leader cut off from the lease stops writing before its lease expires; the other takes over, converges; SIGTERM hands the lease back within one retry period', async () => {
    const { leader, follower } = await twoReplicas('Shift', 30);
    await waitFor(() => applied(leader) > 0, WAIT, 'the leader to apply a step');
    leases.partition(leader.name, 'error');
    const cutAt = performance.now();
    await waitFor(
      () => runEnded(leader, /^apply interrupted, nothing further written/),
      WAIT,
      'the leader to stop writing',
    );
    expect(leader.logs.some((l) => l.msg === 'lost the lease: writes stopped; standing by')).toBe(true);
    await waitFor(async () => (await role(follower)) === 'leader', WAIT, 'the follower to take over');
    await waitFor(() => runEnded(follower, /^reconcile applied$/), WAIT, "the new leader's run");
    await converged('Shift', 30);

    // The old leader's last write left it before its lease could expire, and before the new leader's first.
    const expiry = leaseWrites(leader.name).at(-1)!.at + LEASE_MS;
    const lastOld = writesOf(requests, leader.name).at(-1)!.at;
    const firstNew = writesOf(requests, follower.name)[0]!.at;
    expect(lastOld).toBeLessThan(expiry);
    expect(firstNew).toBeGreaterThan(lastOld);
    expect(writesOf(requests, leader.name).length).toBeLessThan(30);

    // The interrupted run is said as such: /readyz, metrics; the cut-off replica is not ready (it cannot read the lease).
    const cut = await leader.get('/readyz');
    expect(cut.status).toBe(503);
    expect(cut.body).toMatchObject({
      standby: true,
      ha: { role: 'follower', leaseReachable: false },
      lastRun: { result: 'interrupted', interruptedBy: 'lease' },
    });
    const metrics = (await leader.get('/metrics')).text;
    expect(metrics).toMatch(/^docops_leader 0$/m);
    expect(metrics).toMatch(/^docops_reconcile_runs_total\{result="interrupted"\} 1$/m);
    expect((await follower.get('/metrics')).text).toMatch(/^docops_leader 1$/m);

    // Healed, it stands by, ready.
    leases.heal(leader.name);
    await waitFor(
      async () => (await leader.get('/readyz')).status === 200,
      WAIT,
      'the old leader to be a ready follower',
    );
    expect((await leader.get('/readyz')).body).toMatchObject({
      standby: true,
      ha: { role: 'follower', holder: holder() },
    });

    // SIGTERM: the new leader releases the lease; the other takes it at its next read.
    const writesBefore = writesOf(requests, leader.name).length;
    const from = leader.logs.length;
    follower.child.kill('SIGTERM');
    const [code] = await follower.exited;
    expect(code, follower.raw.slice(-5).join('\n')).toBe(0);
    await waitFor(async () => (await role(leader)) === 'leader', WAIT, 'the old leader to take the lease back');
    const released = leases.events.find((e) => e.client === follower.name && e.holder === '')!;
    const retaken = leaseWrites(leader.name).filter((e) => e.at > released.at)[0]!;
    expect(retaken.at - released.at).toBeLessThan(RETRY_MS + 1000);
    // Its first run is a full reconcile that finds nothing to do.
    await waitFor(() => runEnded(leader, /^reconcile done$/, from), WAIT, 'the run after taking the lease back');
    expect(writesOf(requests, leader.name)).toHaveLength(writesBefore);
    console.info(
      `HA partition: writes stopped ${Math.round(expiry - lastOld)} ms before the lease could expire (${Math.round(lastOld - cutAt)} ms after the cut); SIGTERM handover ${Math.round(retaken.at - released.at)} ms`,
    );
  }, 120_000);
});

function teamCreatesBy(replica: string): number {
  return requests.filter((r) => r.replica === replica && r.method === 'PUT' && /\/orgs\/[^/]+\/teams$/.test(r.path))
    .length;
}
