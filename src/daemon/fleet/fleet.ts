/**
 * One daemon, many organizations (docs/daemon.md, "Many organizations"): a Daemon per organization, embedded
 * (daemon.ts EmbeddedIn), each with its own token, API client (and so its own rate-limit pacer and retries), run
 * queue, backoff, file watch, schedule, informer, approvals and notifications — nothing of one waits for another —
 * and around them one HTTP server, one metrics registry (every series labelled `org`) and the leases:
 * - without `ha`: every organization of this daemon's share (all, or its static shard's) is written always;
 * - `ha` without dynamic shards: one Lease for the whole share (today's single-Lease HA, per static shard);
 * - `shard: {leases: S}`: S shard Leases; an organization is written while its shard's Lease is held (shards.ts).
 */
import { EventEmitter } from 'node:events';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createLogger, type Logger } from '../../log.js';
import { loadManifests } from '../../manifests/index.js';
import type { DocopsConfig } from '../../config/config.js';
import { Daemon, type DaemonDeps } from '../daemon.js';
import type { Leadership, LeaseLock } from '../ha/leadership.js';
import { createDaemonMetrics } from '../metrics.js';
import type { RunRecord } from '../run.js';
import { startDaemonServer, type DaemonServer } from '../server.js';
import type { OrgConfig } from '../../config/organizations.js';
import { fleetHandlers } from './http.js';
import type { FleetOrg, FleetView } from './types.js';
import { orgDaemonConfig, orgEnv, orgLoader } from './org-daemon.js';
import { orgToken } from '../../config/tokens.js';
import { allProblems, rejections } from '../../model/errors.js';
import { shardOf } from './shard-of.js';
import type { FleetLeases } from './leases.js';

export interface FleetDeps extends Omit<DaemonDeps, 'embedded' | 'env'> {
  env?: DaemonDeps['env'];
  /** Per organization: deps of its daemon besides the fleet's (tests: a scheduler, a client factory). */
  orgDeps?: (org: OrgConfig) => Partial<DaemonDeps>;
  /** Leases by name (tests); default: the Kubernetes Leases of `ha`. */
  leaseLocks?: (name: string) => Promise<LeaseLock>;
  /** This replica's holder identity (default: the pod name and a random suffix). */
  identity?: string;
}

/** An organization of this daemon: its entry, its shard (dynamic shards) and its daemon. */

/** Events: 'run' ({org, record}) after every run of any organization. */
export type { FleetOrg } from './types.js';

export class Fleet extends EventEmitter implements FleetView {
  readonly logger: Logger;
  readonly registry: Registry;
  readonly orgs = new Map<string, FleetOrg>();
  private server: DaemonServer | undefined;
  private leases: FleetLeases | undefined;
  private stopping: Promise<{ graceful: boolean }> | undefined;

  constructor(
    readonly config: DocopsConfig,
    private readonly deps: FleetDeps = {},
  ) {
    super();
    if (!config.organizations) throw new Error('a fleet needs organizations');
    this.logger = deps.logger ?? createLogger({ level: config.logLevel, env: deps.env ?? process.env });
    this.registry = new Registry();
    if (deps.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** The organizations this daemon reconciles: all, or those of its static shard. */
  share(): { org: OrgConfig; index: number }[] {
    const all = this.config.organizations!.map((org, index) => ({ org, index }));
    const s = this.config.shard;
    return s?.mode === 'static' ? all.filter(({ org }) => shardOf(org.id, s.count) === s.index) : all;
  }

  async start(): Promise<void> {
    const c = this.config;
    const env = this.deps.env ?? process.env;
    const share = this.share();
    // Every token is read (and registered as a secret) first: no organization's manifests may carry another's.
    // Every organization's problem at once, each at its place in the config.
    const read = await Promise.allSettled(share.map(async ({ org, index }) => orgToken(env, org, index)));
    const problem = allProblems(rejections(read));
    if (problem) throw problem;
    const tokens = read.map((r) => (r.status === 'fulfilled' ? r.value : ''));
    const dynamic = c.shard?.mode === 'dynamic' ? c.shard.leases : undefined;
    const leases: FleetLeases | undefined = (this.leases = await this.createLeases(dynamic));
    for (const [i, { org, index }] of share.entries()) {
      const shard = dynamic !== undefined ? shardOf(org.id, dynamic) : undefined;
      const leadership: Leadership | undefined = leases?.of(shard);
      const log = this.logger.child({ org: org.id });
      const daemon = new Daemon(orgDaemonConfig(c, org), {
        ...this.deps,
        ...this.deps.orgDeps?.(org),
        env: orgEnv(env, org, tokens[i]!, c.organizations!),
        logger: log,
        loadManifests: orgLoader(
          org,
          index,
          this.deps.orgDeps?.(org).loadManifests ?? this.deps.loadManifests ?? loadManifests,
        ),
        embedded: {
          metrics: createDaemonMetrics({ registry: this.registry, org: org.id }),
          ...(leadership ? { leadership } : {}),
          statusUrl: () =>
            this.server && c.statusPage !== false
              ? `${this.server.url}/orgs/${encodeURIComponent(org.id)}/`
              : undefined,
          secrets: tokens,
        },
      });
      daemon.on('run', (record: RunRecord) => this.emit('run', { org: org.id, record }));
      this.orgs.set(org.id, { config: org, index, ...(shard !== undefined ? { shard } : {}), daemon });
    }
    // Each organization starts on its own (connects, watches; without `ha` its first run begins).
    await Promise.all([...this.orgs.values()].map((o) => o.daemon.start()));
    this.server = await startDaemonServer(c.listen, fleetHandlers(this, c));
    this.logger.info(
      {
        url: this.server.url,
        organizations: [...this.orgs.keys()],
        of: c.organizations!.length,
        shard: c.shard,
        mode: c.mode,
        ha: c.ha?.mode ?? 'off',
      },
      `docops daemon started for ${this.orgs.size} organization(s); status page ${this.server.url}/`,
    );
    await leases?.start((shard) => this.gained(shard));
  }

  get url(): string {
    if (!this.server) throw new Error('the daemon is not started');
    return this.server.url;
  }

  /** The fleet's leases (absent without `ha`). */
  get leaseView(): FleetLeases | undefined {
    return this.leases;
  }

  /** `quiet`: after a failed start (see Daemon.stop). */
  stop(options: { quiet?: boolean } = {}): Promise<{ graceful: boolean }> {
    this.stopping ??= (async () => {
      const say = options.quiet === true ? this.logger.debug.bind(this.logger) : this.logger.info.bind(this.logger);
      say('stopping: no new reconciles in any organization; the steps in flight finish');
      const results = await Promise.all([...this.orgs.values()].map((o) => o.daemon.stop(options)));
      const graceful = results.every((r) => r.graceful);
      // Released only once no organization writes any more; otherwise they are left to expire.
      await this.leases?.stop(graceful);
      await this.server?.close();
      say({ graceful }, 'stopped');
      return { graceful };
    })();
    return this.stopping;
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** A lease was taken: the organizations written under it reconcile in full (reason `leader`). */
  private gained(shard: number | undefined): void {
    for (const o of this.orgs.values()) if (o.shard === shard) o.daemon.leadershipGained('leader');
  }

  private async createLeases(dynamic: number | undefined): Promise<FleetLeases | undefined> {
    const c = this.config;
    if (c.ha === undefined) return undefined;
    const setLeader = (shard: number | undefined, value: boolean): void => {
      for (const o of this.orgs.values()) if (o.shard === shard) o.daemon.metrics.setLeader(value);
    };
    const { fleetLeases } = await import('./leases.js');
    return fleetLeases(c.ha, {
      env: this.deps.env ?? process.env,
      logger: this.logger,
      registry: this.registry,
      setLeader,
      ...(dynamic !== undefined ? { shards: dynamic } : {}),
      ...(this.deps.leaseLock ? { lock: this.deps.leaseLock } : {}),
      ...(this.deps.leaseLocks ? { lockFor: this.deps.leaseLocks } : {}),
      ...(this.deps.identity !== undefined ? { identity: this.deps.identity } : {}),
      // A shard hands over only once its organizations' runs have ended.
      idle: (shard) => [...this.orgs.values()].filter((o) => o.shard === shard).every((o) => !o.daemon.busy.running),
    });
  }
}
