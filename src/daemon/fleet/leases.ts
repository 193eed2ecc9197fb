/**
 * The leases a fleet writes under (imported only with `ha`): one Lease for all its organizations (today's HA, one
 * per static shard), or dynamic shards (shards.ts). Either way each organization gets the Leadership of its lease:
 * its write gate closes the moment that lease is no longer held.
 */
import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../../log.js';
import type { Env } from '../../manifests/interpolate.js';
import type { HaConfig } from '../../config/ha.js';
import { LeaderElector, type ElectionStatus, type LeaseLock } from '../ha/election.js';
import { kubernetesLock, leadershipOf, replicaIdentity, type Leadership } from '../ha/leadership.js';
import { ShardCoordinator, type ShardView } from './shards.js';

export interface FleetLeases {
  /** The leadership an organization of that shard (undefined: the one Lease) is written under. */
  of(shard: number | undefined): Leadership;
  /** Begin electing; `onGained` each time a lease is taken. */
  start(onGained: (shard: number | undefined) => void): Promise<void>;
  /** Stop; `release` hands every held lease over (nothing is written any more). */
  stop(release: boolean): Promise<void>;
  view(): LeasesView;
}

export type LeasesView =
  | { mode: 'single'; election: ElectionStatus }
  | { mode: 'dynamic'; identity: string; shards: ShardView[]; replicas: number; target: number; held: number[] };

export interface FleetLeasesDeps {
  env: Env;
  logger: Logger;
  registry: Registry;
  /** Dynamic shards: their number. */
  shards?: number;
  /** The one Lease's lock (tests); default the Kubernetes Lease of the config. */
  lock?: LeaseLock;
  /** A Lease by name (tests); default the Kubernetes Lease of that name. */
  lockFor?: (name: string) => Promise<LeaseLock>;
  identity?: string;
  setLeader(shard: number | undefined, value: boolean): void;
  idle(shard: number): boolean;
}

/** What both ways of electing start from. */
interface Election {
  ha: HaConfig;
  deps: FleetLeasesDeps;
  identity: string;
  lockFor(name: string): Promise<LeaseLock>;
  log: Logger;
}

export async function fleetLeases(ha: HaConfig, deps: FleetLeasesDeps): Promise<FleetLeases> {
  const identity = deps.identity ?? replicaIdentity(deps.env);
  const lockFor = deps.lockFor ?? ((name: string) => kubernetesLock(ha, name, deps.env));
  const election: Election = { ha, deps, identity, lockFor, log: deps.logger.child({ component: 'leader-election' }) };
  return deps.shards === undefined ? oneLease(election) : dynamicShards(election, deps.shards);
}

/** The one Lease every organization is written under. */
async function oneLease({ ha, deps, identity, lockFor, log }: Election): Promise<FleetLeases> {
  let onGained: (shard: number | undefined) => void = () => {};
  const elector = new LeaderElector(deps.lock ?? (await lockFor(ha.leaseName)), identity, ha, log);
  elector.on('started-leading', () => {
    deps.setLeader(undefined, true);
    onGained(undefined);
  });
  elector.on('stopped-leading', (reason: string) => {
    deps.setLeader(undefined, false);
    if (reason !== 'stopping')
      log.error({ reason }, 'lost the lease: writes stopped in every organization; standing by');
  });
  const leadership = leadershipOf(elector);
  return {
    of: () => leadership,
    async start(cb) {
      onGained = cb;
      log.info({ identity, lease: ha.leaseName }, 'leader election started: reconciling only while holding the lease');
      elector.start();
    },
    stop: (release) => elector.stop({ release }),
    view: () => ({ mode: 'single', election: elector.status() }),
  };
}

/** `S` shard Leases, a fair share of them taken by each replica (shards.ts). */
async function dynamicShards({ ha, deps, identity, lockFor, log }: Election, S: number): Promise<FleetLeases> {
  let onGained: (shard: number | undefined) => void = () => {};
  const { owner, replicas } = shardGauges(deps.registry, S);
  const coordinator = await ShardCoordinator.create(ha, {
    shards: S,
    identity,
    lockFor,
    logger: log,
    idle: deps.idle,
    onGained(shard) {
      owner.set({ shard: String(shard) }, 1);
      deps.setLeader(shard, true);
      log.info({ shard }, 'took the shard: its organizations reconcile here');
      onGained(shard);
    },
    onLost(shard) {
      owner.set({ shard: String(shard) }, 0);
      deps.setLeader(shard, false);
    },
  });
  replicas.set(1);
  const leaderships = coordinator.shards.map((e) => leadershipOf(e));
  return {
    of: (shard) => leaderships[shard ?? 0]!,
    async start(cb) {
      onGained = (shard) => {
        replicas.set(coordinator.replicas());
        cb(shard);
      };
      log.info(
        { identity, shards: S, leases: `${ha.leaseName}-shard-0…${S - 1}` },
        'dynamic shards: taking a fair share of the shard Leases',
      );
      coordinator.start();
    },
    stop: (release) => coordinator.stop(release),
    view: () => {
      const n = coordinator.replicas();
      replicas.set(n);
      return {
        mode: 'dynamic',
        identity,
        shards: coordinator.view(),
        replicas: n,
        target: coordinator.target(),
        held: coordinator.held(),
      };
    },
  };
}

/** The shards' metrics: who owns each, how many there are, how many replicas share them. */
function shardGauges(registry: Registry, S: number): { owner: Gauge; replicas: Gauge } {
  const owner = new Gauge({
    name: 'docops_shard_owner',
    help: '1 while this replica holds the shard Lease (its organizations are written by this replica), else 0.',
    labelNames: ['shard'],
    registers: [registry],
  });
  new Gauge({
    name: 'docops_shards',
    help: 'Shard Leases of the fleet (shard.leases): as many shards must be held, each by one replica.',
    registers: [registry],
  }).set(S);
  const replicas = new Gauge({
    name: 'docops_shard_replicas',
    help: 'Replicas alive as this one sees them (member Leases held).',
    registers: [registry],
  });
  for (let i = 0; i < S; i++) owner.set({ shard: String(i) }, 0);
  return { owner, replicas };
}
