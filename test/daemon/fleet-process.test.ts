/**
 * Three real daemon processes with dynamic shards (`shard: {leases: 6}`) against the Lease endpoints of the HA
 * tests (lease-server.ts) and twelve organizations, each with its own token and its own sandbox (behind one API
 * address that routes by token). Every request a replica sends passes its own recording proxy, so each write is
 * attributed to a replica and, by its token, to an organization. Assertions are about ownership — who held which
 * shard Lease, who wrote which organization, in which order — never about how long anything took (the benchmark
 * times the takeover: fleetTakeoverMs).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/daemon/fleet/shard-of.js';
import { quickBuild } from './build.js';
import { fleetTeamYaml, orgTeams, startOrgs, startTokenRouter, type TestOrg } from './fleet-helpers.js';
import { startLeaseServer, type FakeLeaseServer } from './lease-server.js';
import { startReplica, type ProxiedRequest, type Replica } from './replicas.js';
import { waitFor } from './wait.js';

const S = 6;
const LEASE = [
  'ha:',
  '  mode: kubernetes',
  '  leaseName: docops',
  '  leaseDurationMs: 3000',
  '  renewDeadlineMs: 2000',
  '  retryPeriodMs: 500',
  `shard: { leases: ${S} }`,
];
const WAIT = 90_000;
const IDS = Array.from({ length: 12 }, (_, i) => `org-${String.fromCharCode(97 + i)}`);

let build: string;
let orgs: TestOrg[];
let router: Awaited<ReturnType<typeof startTokenRouter>>;
let leases: FakeLeaseServer;
const requests: ProxiedRequest[] = [];
const replicas: Replica[] = [];

beforeAll(async () => {
  build = quickBuild();
  writeFileSync(
    join(build, 'run-daemon.mjs'),
    "import { daemonCommand } from './dist/cli/commands/daemon.js';\nimport { processIO } from './dist/cli/io.js';\nprocess.exitCode = await daemonCommand(process.argv.slice(2), processIO());\n",
  );
  // A little latency and one request at a time: an apply of a few teams is long enough to be cut.
  orgs = await startOrgs(IDS, () => ({ faults: 'latency=40ms' }));
  router = await startTokenRouter(orgs);
  leases = await startLeaseServer();
}, 60_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  await leases?.close();
  await router?.close();
  for (const o of orgs ?? []) await o.sandbox.close();
});

const manifests = (teams: number): Record<string, string> =>
  Object.fromEntries(
    orgs.flatMap((o) =>
      Array.from({ length: teams }, (_, t) => [`${o.id}/team-${t}.yaml`, fleetTeamYaml(o.id, `Fleet ${o.id} ${t}`)]),
    ),
  );

async function replica(name: string): Promise<Replica> {
  const config = [
    'concurrency: 1',
    'organizations:',
    ...orgs.flatMap((o) => [`  - id: ${o.id}`, `    manifests: ./manifests/${o.id}`, `    tokenEnv: ${o.env}`]),
    ...LEASE,
  ];
  const r = await startReplica({
    build,
    name,
    manifests: manifests(1),
    sandbox: { origin: new URL(router.url).origin, token: 'none' },
    leases,
    config,
    requests,
    writesFrom: Promise.resolve(),
    fleet: true,
    env: Object.fromEntries(orgs.map((o) => [o.env, o.token])),
  });
  replicas.push(r);
  return r;
}

const holder = (shard: number): string =>
  String(leases.lease('docops', `docops-shard-${shard}`)?.spec.holderIdentity ?? '');
/** The replica (by name) holding a shard, '' when none. */
const owner = (shard: number): string => replicas.find((r) => holder(shard).startsWith(`${r.name}-`))?.name ?? '';
const orgOf = (token: string | undefined): string | undefined => orgs.find((o) => o.token === token)?.id;
const writes = (from = 0): ProxiedRequest[] => requests.slice(from).filter((r) => r.method !== 'GET');
const alive = (): Replica[] => replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
const allHeldBy = (names: string[]): boolean =>
  Array.from({ length: S }, (_, s) => owner(s)).every((o) => names.includes(o));
const fair = (names: string[]): boolean =>
  allHeldBy(names) &&
  names.every(
    (n) => Array.from({ length: S }, (_, s) => owner(s)).filter((o) => o === n).length <= Math.ceil(S / names.length),
  );
const runsOf = (r: Replica, org: string, from = 0): Record<string, unknown>[] =>
  r.logs.slice(from).filter((l) => l.org === org && l.msg === 'reconcile started');
const converged = async (teams: number): Promise<boolean> =>
  (
    await Promise.all(orgs.map(async (o) => (await orgTeams(o)).filter((t) => t.startsWith('Fleet ')).length === teams))
  ).every(Boolean);

/** Per organization, the writers in the order their writes arrived, with repeats folded: [A] or [A, B], never [A, B, A]. */
function writerRuns(from: number): Map<string, string[]> {
  const seq = new Map<string, string[]>();
  for (const w of writes(from)) {
    const org = orgOf(w.token)!;
    const list = seq.get(org) ?? [];
    if (list.at(-1) !== w.replica) list.push(w.replica);
    seq.set(org, list);
  }
  return seq;
}

describe('three replicas, twelve organizations, six shard Leases', () => {
  it('each organization is written by exactly one replica, its shard holder; a killed replica’s shards move; a cut-off one never writes beside another; a rolling restart hands every shard over', async () => {
    const [a, b, c] = [await replica('rep-a'), await replica('rep-b'), await replica('rep-c')];
    const three = [a.name, b.name, c.name];
    await waitFor(
      () => fair(three),
      WAIT,
      () => `a fair share: ${Array.from({ length: S }, (_, s) => owner(s)).join(',')}\n${a.raw.slice(-5).join('\n')}`,
    );
    await waitFor(() => converged(1), WAIT, 'every organization’s team');

    // Settled: a change in every organization is reconciled and written by exactly one replica, its shard's holder.
    const settledLogs = new Map(replicas.map((r) => [r.name, r.logs.length]));
    const settledFrom = requests.length;
    for (const r of replicas)
      for (const [file, text] of Object.entries(manifests(2))) writeFileSync(join(r.dir, 'manifests', file), text);
    await waitFor(() => converged(2), WAIT, 'every organization’s second team');
    const settled = writerRuns(settledFrom);
    for (const o of orgs) {
      expect(settled.get(o.id), o.id).toEqual([owner(shardOf(o.id, S))]);
      const reconciledBy = replicas
        .filter((r) => runsOf(r, o.id, settledLogs.get(r.name)).length > 0)
        .map((r) => r.name);
      expect(reconciledBy, `${o.id} reconciled by`).toEqual([owner(shardOf(o.id, S))]);
    }
    console.info(`fleet start: shard Lease holders over time ${JSON.stringify(holderHistory())}`);

    // Kill one: its shards move to the two others, whose first run of each of its organizations is a full one.
    const victim = c;
    const victimShards = Array.from({ length: S }, (_, s) => s).filter((s) => owner(s) === victim.name);
    expect(victimShards.length).toBeGreaterThan(0);
    const logFrom = new Map(replicas.map((r) => [r.name, r.logs.length]));
    victim.child.kill('SIGKILL');
    await victim.exited;
    await waitFor(
      () => victimShards.every((s) => [a.name, b.name].includes(owner(s))),
      WAIT,
      'the killed replica’s shards to move',
    );
    for (const o of orgs.filter((x) => victimShards.includes(shardOf(x.id, S)))) {
      const next = replicas.find((r) => r.name === owner(shardOf(o.id, S)))!;
      await waitFor(
        () => runsOf(next, o.id, logFrom.get(next.name)).length > 0,
        WAIT,
        `${o.id} reconciled by ${next.name}`,
      );
      expect(runsOf(next, o.id, logFrom.get(next.name))[0]!.reasons).toEqual(['leader']);
    }

    // Cut one off from the Leases while both apply new teams: it stops before the other takes over, and no
    // organization is ever written by the two at once (per organization the writers follow one another).
    const writesFrom = requests.length;
    for (const r of alive())
      for (const [file, text] of Object.entries(manifests(4))) writeFileSync(join(r.dir, 'manifests', file), text);
    await waitFor(() => writes(writesFrom).length > 0, WAIT, 'the new teams being written');
    leases.partition(b.name, 'error');
    await waitFor(() => allHeldBy([a.name]), WAIT, 'the replica still reaching the Leases to hold every shard');
    await waitFor(() => converged(4), WAIT, 'every organization’s four teams');
    for (const [org, seq] of writerRuns(writesFrom)) {
      expect(seq.length, `${org}: ${seq.join(' → ')}`).toBeLessThanOrEqual(2);
      if (seq.length === 2) expect(seq, org).toEqual([b.name, a.name]); // the cut-off one, then the other: never back
    }
    for (const o of orgs)
      expect(
        (await orgTeams(o)).filter((t) => t.startsWith('Fleet ')),
        o.id,
      ).toHaveLength(4); // no duplicate create
    leases.heal(b.name);
    await waitFor(() => fair([a.name, b.name]), WAIT, 'the healed replica to get its share back');

    // Rolling restart: a new replica joins, then each old one is stopped (SIGTERM) after the next is up. Every
    // change of holder of a shard Lease goes through a release — none waits for a Lease to expire.
    const eventsFrom = leases.events.length;
    const d = await replica('rep-d');
    await waitFor(() => fair([a.name, b.name, d.name]), WAIT, 'rep-d to get its share');
    a.child.kill('SIGTERM');
    expect((await a.exited)[0]).toBe(0);
    const e = await replica('rep-e');
    await waitFor(() => fair([b.name, d.name, e.name]), WAIT, 'rep-e to get its share');
    b.child.kill('SIGTERM');
    expect((await b.exited)[0]).toBe(0);
    await waitFor(() => fair([d.name, e.name]), WAIT, 'the last two to share every shard');
    const handovers = shardHandovers(eventsFrom);
    expect(handovers.length).toBeGreaterThanOrEqual(S);
    for (const h of handovers) expect(h.before, `${h.lease} → ${h.holder}`).toBe('');
  }, 600_000);
});

/** Each write of a shard Lease that names a new holder, with the holder the Lease had just before. */
function shardHandovers(from: number): { lease: string; holder: string; before: string }[] {
  const last = new Map<string, string>();
  const out: { lease: string; holder: string; before: string }[] = [];
  leases.events.forEach((e, i) => {
    if (e.holder === undefined || e.lease === undefined || !e.lease.startsWith('docops-shard-')) return;
    const before = last.get(e.lease);
    last.set(e.lease, e.holder);
    if (i >= from && before !== undefined && e.holder !== '' && e.holder !== before)
      out.push({ lease: e.lease, holder: e.holder, before });
  });
  return out;
}

/** Per shard Lease, the holders it was given in order (a short name each). */
function holderHistory(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of leases.events)
    if (e.holder !== undefined && e.lease?.startsWith('docops-shard-'))
      (out[e.lease] ??= []).push(e.holder.replace(/-[0-9a-f]{8}$/, '') || '∅');
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.filter((h, i) => v[i - 1] !== h)]));
}
