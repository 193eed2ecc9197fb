/**
 * Dynamic shards in one process (shards.ts): replicas sharing in-memory Leases with the API server's
 * compare-and-swap. Short timings; every wait is on a condition, every assertion on ownership (who held which
 * shard, in which order), never on how long something took.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HaConfig } from '../../src/config/ha.js';
import { LeaseConflictError, type LeaseLock, type LeaseRecord } from '../../src/daemon/ha/election.js';
import { ShardCoordinator } from '../../src/daemon/fleet/shards.js';
import { createLogger } from '../../src/log.js';
import { waitFor } from './wait.js';

const HA: HaConfig = {
  mode: 'kubernetes',
  leaseName: 'docops',
  leaseDurationMs: 900,
  renewDeadlineMs: 600,
  retryPeriodMs: 150,
};
const S = 6;

/** Leases by name; a replica's requests fail while it is cut off. */
function memoryLeases() {
  const leases = new Map<string, { record: LeaseRecord; version: number }>();
  const cut = new Set<string>();
  /** Every successful write, in order: which holder each Lease was given. */
  const writes: { name: string; holder: string }[] = [];
  let version = 0;
  const lockFor =
    (replica: string) =>
    async (name: string): Promise<LeaseLock> => ({
      description: `test/${name}`,
      async get() {
        if (cut.has(replica)) throw new Error('cut off');
        const l = leases.get(name);
        return l ? { record: { ...l.record }, version: String(l.version) } : undefined;
      },
      async create(record) {
        if (cut.has(replica)) throw new Error('cut off');
        if (leases.has(name)) throw new LeaseConflictError('exists');
        leases.set(name, { record: { ...record }, version: ++version });
        writes.push({ name, holder: record.holderIdentity });
        return String(version);
      },
      async update(record, v) {
        if (cut.has(replica)) throw new Error('cut off');
        const l = leases.get(name);
        if (!l || String(l.version) !== v) throw new LeaseConflictError('moved on');
        leases.set(name, { record: { ...record }, version: ++version });
        writes.push({ name, holder: record.holderIdentity });
        return String(version);
      },
    });
  return { leases, cut, lockFor, writes };
}

/** Every gain and loss of every replica, in order: who may write which shard when. */
type Event = { replica: string; shard: number; held: boolean };

const silent = createLogger({ level: 'silent' });
let coordinators: ShardCoordinator[] = [];
afterEach(async () => {
  await Promise.all(coordinators.map((c) => c.stop(false)));
  coordinators = [];
});

async function replica(
  name: string,
  store: ReturnType<typeof memoryLeases>,
  events: Event[],
): Promise<ShardCoordinator> {
  const c = await ShardCoordinator.create(HA, {
    shards: S,
    identity: name,
    lockFor: store.lockFor(name),
    logger: silent,
    idle: () => true,
    onGained: (shard) => events.push({ replica: name, shard, held: true }),
    onLost: (shard) => events.push({ replica: name, shard, held: false }),
  });
  coordinators.push(c);
  c.start();
  return c;
}

/** Replays the events: at no point do two replicas hold (may write) the same shard. */
function neverTwoWriters(events: Event[]): void {
  const holders = new Map<number, Set<string>>();
  for (const e of events) {
    const set = holders.get(e.shard) ?? new Set<string>();
    if (e.held) set.add(e.replica);
    else set.delete(e.replica);
    holders.set(e.shard, set);
    expect(set.size, `shard ${e.shard} after ${JSON.stringify(e)}`).toBeLessThanOrEqual(1);
  }
}

const holderOf = (store: ReturnType<typeof memoryLeases>, shard: number): string =>
  store.leases.get(`docops-shard-${shard}`)?.record.holderIdentity ?? '';
const balanced = (cs: ShardCoordinator[], each: number): boolean =>
  cs.every((c) => c.held().length === each) && cs.reduce((n, c) => n + c.held().length, 0) === S;

describe('dynamic shards', () => {
  it('three replicas share six shards two each, never two holders; a stopped one hands its shards over; a cut-off one stops writing before another takes over', async () => {
    const store = memoryLeases();
    const events: Event[] = [];
    const [a, b, c] = [
      await replica('a', store, events),
      await replica('b', store, events),
      await replica('c', store, events),
    ];
    await waitFor(
      () => balanced([a, b, c], 2),
      30_000,
      () => `two shards each: ${[a, b, c].map((x) => x.held().join(',')).join(' | ')}`,
    );
    expect(a.replicas()).toBe(3);
    expect(a.target()).toBe(2);

    // c stops (SIGTERM): it releases its member Lease and its shards; a and b take three each, from the release.
    const cShards = c.held();
    await c.stop(true);
    coordinators = [a, b];
    for (const s of cShards) expect(holderOf(store, s)).toBe('');
    await waitFor(() => balanced([a, b], 3), 30_000, 'three shards each');

    // b is cut off from the Leases: its gate closes (lost) before a may take any of its shards.
    const bShards = b.held();
    store.cut.add('b');
    await waitFor(() => a.held().length === S, 30_000, 'a to hold every shard');
    for (const s of bShards) {
      const lost = events.findIndex((e) => e.replica === 'b' && e.shard === s && !e.held);
      const taken = events.findIndex((e, i) => i > lost && e.replica === 'a' && e.shard === s && e.held);
      expect(lost, `b lost shard ${s}`).toBeGreaterThanOrEqual(0);
      expect(taken, `a took shard ${s} after b lost it`).toBeGreaterThan(lost);
    }
    neverTwoWriters(events);
    expect(b.held()).toEqual([]);
  }, 60_000);

  it('a replica that joins gets its share handed over; a killed one (no release) has its shards taken once they expire', async () => {
    const store = memoryLeases();
    const events: Event[] = [];
    const a = await replica('a', store, events);
    await waitFor(() => a.held().length === S, 30_000, 'a alone to take every shard');
    const b = await replica('b', store, events);
    await waitFor(() => balanced([a, b], 3), 30_000, 'three each once b joined');
    const c = await replica('c', store, events);
    await waitFor(() => balanced([a, b, c], 2), 30_000, 'two each once c joined');
    // Handed over, not left to expire: every change of holder of a shard Lease went through a release.
    const shardWrites = store.writes.filter((w) => w.name.includes('-shard-'));
    const takes = shardWrites.filter((w, i) => {
      const before = shardWrites
        .slice(0, i)
        .filter((x) => x.name === w.name)
        .at(-1);
      return before !== undefined && w.holder !== '' && before.holder !== w.holder;
    });
    expect(takes.length).toBeGreaterThanOrEqual(4); // b took three, c two (one of them from b)
    for (const t of takes)
      expect(
        shardWrites
          .slice(0, shardWrites.indexOf(t))
          .filter((x) => x.name === t.name)
          .at(-1)!.holder,
        t.name,
      ).toBe('');
    // c dies: no release; its Leases expire and a and b take them.
    const cShards = c.held();
    store.cut.add('c'); // its requests never arrive again
    await c.stop(false);
    coordinators = [a, b];
    await waitFor(() => balanced([a, b], 3), 30_000, 'three each after c died');
    for (const s of cShards) expect(['a', 'b']).toContain(holderOf(store, s));
    neverTwoWriters(events);
  }, 60_000);
});
