/**
 * The long-lived reconciler: triggers (file watch, cron, HTTP, retries) → one coalescing runner →
 * reconcileRun → readiness, metrics, backoff. Events: 'run' (RunRecord) after every run,
 * 'retry-scheduled' ({attempt, delayMs}) when a failed run will be retried.
 */
import { EventEmitter } from 'node:events';
import type { KindDefinition } from '../core/kind.js';
import { KINDS } from '../kinds/index.js';
import { createLogger, type Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import { loadManifests } from '../manifests/index.js';
import type { RunningSandbox } from '@docops/sandbox';
import { resolveSafetyConfig } from '../safety/index.js';
import { registerSecret } from '../secrets.js';
import { attributeDrift } from '../audit/attribute.js';
import { Notifier } from '../notify/index.js';
import type { RetryPolicy } from '../notify/sender.js';
import { documentFingerprints } from '../core/scope.js';
import { fetchLive, type DesiredState, type LiveState } from '../core/reconcile.js';
import { fetchWhoami } from '../safety/index.js';
import type { Whoami } from '../safety/gate.js';
import { ScopeTracker } from './changes.js';
import { createParseCache } from './parse-cache.js';
import { createPreloader, type Preloader } from './preload.js';
import { createRetrier, systemClock, type Clock, type Retrier } from './backoff.js';
import type { DaemonConfig } from './config.js';
import { connectApi, type ClientFactory, type Connection, type SettingsResolver } from './connect.js';
import type { Leadership, LeaseLock } from './ha/leadership.js';
import type { DaemonApprovals } from '../policy/daemon-approvals.js';
import { leaderReadiness, standbyReadiness, STANDBY, type ApiState, type ManifestsState } from './readiness.js';
import { createDaemonMetrics, type DaemonMetrics } from './metrics.js';
import { reconcileRun, type LoadManifests, type RunRecord } from './run.js';
import { positionsOf, publicRun } from './run-view.js';
import { manifestsRevision } from './status/revision.js';
import { StatusTracker } from './status/tracker.js';
import { answerReconcile } from './http-reconcile.js';
import { createInformerLink, type InformerLink } from './informer/link.js';
import { startDaemonServer, type DaemonServer, type ReconcileAnswer, type Readiness } from './server.js';
import { createCoalescingRunner, nodeCronScheduler, RunnerStoppedError, watchManifests, type CoalescingRunner, type ManifestWatcher, type Scheduler, type TriggerReason } from './triggers.js';

export interface DaemonDeps {
  env?: Env;
  logger?: Logger;
  kinds?: readonly KindDefinition[];
  loadManifests?: LoadManifests;
  createClient?: ClientFactory;
  resolveSettings?: SettingsResolver;
  scheduler?: Scheduler;
  /** Timers for retries (a fake in tests). */
  clock?: Clock;
  random?: () => number;
  /** Default true; tests turn process metrics off. */
  defaultMetrics?: boolean;
  /** The daemon's role on the status page: `single` by default; leader election says `leader` or `standby`. */
  role?: () => string;
  /** Backoff of failed notification deliveries (tests make it short). */
  notifyRetry?: RetryPolicy;
  /** With `ha`: the lease to elect a leader on (default: the configured Kubernetes Lease). */
  leaseLock?: LeaseLock;
  /** One organization of a fleet (src/daemon/fleet): the fleet serves HTTP and holds the leases; this reconciles. */
  embedded?: EmbeddedIn;
}

/** What a fleet gives each of its organizations' daemons. */
export interface EmbeddedIn {
  /** The organization's series of the fleet's metrics (`org` label). */
  metrics: DaemonMetrics;
  /** The lease (the fleet's, or the organization's shard's) this organization is written under; absent: always. */
  leadership?: Leadership;
  /** The status page's address, for notifications. */
  statusUrl(): string | undefined;
  /** Values no manifest variable may carry besides this organization's token (the other organizations' tokens). */
  secrets?: readonly string[];
}

const HISTORY = 20;

export class Daemon extends EventEmitter {
  readonly metrics: DaemonMetrics;
  readonly logger: Logger;
  /** The most recent runs, newest last. */
  readonly runs: RunRecord[] = [];
  /** What the status page shows. */
  readonly status: StatusTracker;
  /** Set when the config has `notify:` targets. */
  readonly notifier: Notifier | undefined;
  /** The initial run's outcome (set by start). */
  firstRun: Promise<RunRecord> | undefined;

  private readonly env: Env;
  private readonly kinds: readonly KindDefinition[];
  private readonly runner: CoalescingRunner<RunRecord>;
  private readonly retrier: Retrier;
  private readonly abort = new AbortController();
  private manifests: ManifestsState | undefined;
  private api: ApiState | undefined;
  private lastGood: { at: string; documents: number } | undefined;
  private connection: Connection | undefined;
  private server: DaemonServer | undefined;
  private watcher: ManifestWatcher | undefined;
  private cron: { stop(): void | Promise<void> } | undefined;
  /** With `ha`: only the holder of the lease reconciles. */
  private leadership: Leadership | undefined;
  private stopping: Promise<{ graceful: boolean }> | undefined;
  private runId = 0;
  /** Full or scoped runs (src/daemon/changes.ts). */
  private readonly scoping: ScopeTracker;
  /** Manifest loads started by file events, taken by the next run (src/daemon/preload.ts). */
  private preloader: Preloader<Awaited<ReturnType<LoadManifests>>> | undefined;
  /** Parses of unchanged manifest files, kept between loads. */
  private readonly parseCache = createParseCache();
  /**
   * A scoped run's live state read while the save's debounce waits (readAhead): valid only for the load it was
   * read for, and only if no run started since (a run's writes would make it stale).
   */
  private ahead: { desired: DesiredState; scopes: string; epoch: number; live: Promise<LiveState> } | undefined;
  /** Runs started so far, and whether one is running now. */
  private runEpoch = 0;
  private runActive = false;
  /** The token's user, asked once: the token does not change while the daemon runs. A failed ask is not kept. */
  private whoami: Promise<Whoami> | undefined;
  /** With a `policy:`: its gate and the approvals (src/policy, loaded only then). */
  approvals: DaemonApprovals | undefined;
  /** Following the audit log between full reads (src/daemon/informer), when on. */
  private informer: InformerLink | undefined;

  constructor(
    readonly config: DaemonConfig,
    private readonly deps: DaemonDeps = {},
  ) {
    super();
    this.env = deps.env ?? process.env;
    this.kinds = deps.kinds ?? KINDS;
    this.logger = deps.logger ?? createLogger({ level: config.logLevel, env: this.env });
    this.metrics = deps.embedded?.metrics ?? createDaemonMetrics({ defaultMetrics: deps.defaultMetrics !== false });
    this.leadership = deps.embedded?.leadership;
    this.runner = createCoalescingRunner((reasons) => this.runOnce(reasons));
    this.retrier = createRetrier(config.retry, () => this.fire('retry'), deps.clock ?? systemClock, deps.random);
    registerSecret(config.reconcileSecret);
    this.status = new StatusTracker({
      mode: config.mode,
      manifestsDir: config.manifestsDir,
      ...(config.schedule !== undefined ? { schedule: config.schedule } : {}),
      // `single` without leader election; with it the elector's role (a follower is a standby).
      role: deps.role ?? (() => (!this.elects ? 'single' : ((r) => (r === 'follower' ? 'standby' : r))(this.leadership?.status().role ?? 'starting'))),
      readiness: () => {
        const r = this.readiness().body;
        return { ready: r.ready === true, ...(typeof r.reason === 'string' ? { reason: r.reason } : {}) };
      },
      approval: () => this.approvals?.view() ?? null,
      informer: () => this.informer?.status(),
    });
    const targets = config.notify ?? [];
    this.notifier =
      targets.length > 0
        ? new Notifier(targets, { logger: this.logger.child({ component: 'notify' }), ...(deps.notifyRetry ? { retry: deps.notifyRetry } : {}), statusUrl: () => this.statusUrl() })
        : undefined;
    // What else decides a plan besides the documents: a different value makes the next run full.
    const planConfig = JSON.stringify([config.manifestsDir, config.prune, config.invite, config.allowEnv ?? []]);
    this.scoping = new ScopeTracker(this.kinds, planConfig, config.mode);
  }

  /** Connect, serve HTTP, watch, schedule, and start the initial run (not awaited: see firstRun). */
  async start(): Promise<void> {
    const c = this.config;
    resolveSafetyConfig(c.safety ?? {}); // a bad safety section fails the start, not the first apply
    if (c.policy) this.approvals = await this.startApprovals(c.policy);
    this.connection = await connectApi(c, this.env, this.logger, (info) => this.metrics.apiResponse(info.method, info.status ?? 0), {
      createClient: this.deps.createClient,
      resolveSettings: this.deps.resolveSettings,
    });
    if (this.deps.embedded === undefined) await this.serve();
    await this.watch();
    if (this.deps.embedded) {
      // The fleet elects; this organization's first run comes with the lease (leadershipGained), or now without one.
      if (!this.leadership) this.leadershipGained('start');
      else if (this.leadership.leading) this.leadershipGained('leader');
      return;
    }
    this.logger.info(
      { url: this.url, manifests: c.manifestsDir, mode: c.mode, schedule: c.schedule, reconcileEndpoint: c.reconcileSecret !== undefined, api: this.connection.client.baseUrl, ha: c.ha?.mode ?? 'off' },
      `docops daemon started; status page ${this.url}/`,
    );
    if (c.ha === undefined) {
      this.leadershipGained('start');
      return;
    }
    // Loaded only with `ha` (the Kubernetes client is big); the first run waits for the lease.
    const { startLeadership } = await import('./ha/leadership.js');
    this.leadership = await startLeadership(c.ha, {
      env: this.env,
      logger: this.logger,
      metrics: this.metrics,
      ...(this.deps.leaseLock ? { lock: this.deps.leaseLock } : {}),
      // A new leader's first run is a full reconcile: whatever the last one left half-done is planned again.
      onLeading: () => this.leadershipGained('leader'),
    });
  }

  /**
   * This daemon may write from now on: without election at start (reason `start`), else each time its lease is
   * taken (reason `leader`: a full reconcile plans whatever the last holder left half-done).
   */
  leadershipGained(reason: 'start' | 'leader'): void {
    if (this.stopping) return;
    if (reason === 'start') this.metrics.setLeader(true);
    const run = this.trigger(reason);
    this.firstRun ??= run;
    run.catch(() => {});
  }

  /** Whether an election (this daemon's own, or its fleet's) decides when it writes. */
  private get elects(): boolean {
    return this.config.ha !== undefined || this.deps.embedded?.leadership !== undefined;
  }

  private statusUrl(): string | undefined {
    if (this.deps.embedded) return this.deps.embedded.statusUrl();
    return this.server && this.config.statusPage !== false ? `${this.server.url}/` : undefined;
  }

  private async serve(): Promise<void> {
    const c = this.config;
    this.server = await startDaemonServer(c.listen, {
      readiness: () => this.readiness(),
      metrics: async () => ({ contentType: this.metrics.registry.contentType, body: await this.metrics.registry.metrics() }),
      reconcile: (wait, full) => this.requestReconcile(wait, full === true),
      ...(c.statusPage !== false
        ? {
            status: {
              html: async () => (await import('./status/html.js')).renderStatusHtml(await this.status.status()),
              json: () => this.status.status(),
              run: (id: number) => this.status.run(id),
            },
          }
        : {}),
      ...(c.reconcileSecret !== undefined ? { reconcileSecret: c.reconcileSecret } : {}),
      ...(this.approvals?.token !== undefined ? { approve: { token: this.approvals.token, handle: (body: unknown) => this.requestApproval(body) } } : {}),
      logger: this.logger,
    });
  }

  /** The file watch (with its preloads), the schedule and the informer's polls. */
  private async watch(): Promise<void> {
    const c = this.config;
    const preloader = (this.preloader = createPreloader(() =>
      this.load().then((loaded) => {
        this.readAhead(loaded.desired);
        return loaded;
      }),
    ));
    this.watcher = await watchManifests(
      c.manifestsDir,
      c.debounceMs,
      (paths) => {
        this.logger.debug({ paths }, 'manifests changed');
        this.fire('watch');
      },
      (err) => this.logger.error({ err }, 'watching the manifests failed'),
      () => preloader.changed(),
    );
    if (c.schedule !== undefined) this.cron = (this.deps.scheduler ?? nodeCronScheduler).schedule(c.schedule, () => this.fire('schedule'));
    if (c.informer) {
      const client = this.connection!.client;
      this.informer = createInformerLink(c.informer, { kinds: this.kinds, client, metrics: this.metrics, logger: this.logger, clock: this.deps.clock ?? systemClock, selfId: async () => (await this.askWhoami()).id });
      // A poll between runs, only where a run could follow it: never on a standby, during a run or when stopping.
      this.informer?.start(
        () => !this.runActive && !this.runner.running && this.stopping === undefined && (!this.leadership || this.leadership.leading),
        () => this.fire('poll'),
      );
    }
  }

  /** Ask for a reconcile; resolves with the run that covers it (a run already going queues one follow-up). */
  trigger(reason: TriggerReason): Promise<RunRecord> {
    return this.runner.trigger(reason);
  }

  get url(): string {
    if (this.deps.embedded) return this.deps.embedded.statusUrl() ?? '';
    if (!this.server) throw new Error('the daemon is not started');
    return this.server.url;
  }

  get sandbox(): RunningSandbox | undefined {
    return this.connection?.sandbox;
  }

  /** Whether a run is going, and whether a follow-up is queued. */
  get busy(): { running: boolean; pending: boolean } {
    return { running: this.runner.running, pending: this.runner.pending };
  }

  readiness(): Readiness {
    const common = { stopping: this.stopping !== undefined, lastRun: this.lastRunView() };
    // With `ha`, a replica not (yet) holding the lease answers as one standing by, also while it starts electing.
    const r =
      this.elects && this.leadership?.leading !== true
        ? standbyReadiness({ ...common, ha: this.leadership?.status() ?? { role: 'starting' } })
        : leaderReadiness({ ...common, manifests: this.manifests, api: this.api, lastGood: this.lastGood, retryAttempt: this.retrier.attempt, ha: this.leadership?.status() });
    this.metrics.setReady(r.ready);
    return r;
  }

  private lastRunView(): Record<string, unknown> | null {
    const last = this.runs.at(-1);
    return last ? publicRun(last, this.config.manifestsDir) : null;
  }

  /**
   * Stop taking triggers, abort the apply (the step in flight finishes, no new step starts), close
   * everything. `graceful` is false when the run did not end within shutdownGraceMs.
   */
  stop(): Promise<{ graceful: boolean }> {
    this.stopping ??= (async () => {
      this.logger.info('stopping: no new reconciles; the step in flight finishes');
      // Synchronously first: refuse triggers and stop the apply before anything else is awaited.
      const drained = this.runner.stop();
      this.abort.abort();
      this.retrier.cancel();
      this.informer?.stop();
      await this.cron?.stop();
      await this.watcher?.close();
      this.preloader?.cancel();
      let timer: NodeJS.Timeout | undefined;
      const graceful = await Promise.race([
        drained.then(() => true),
        new Promise<boolean>((res) => (timer = setTimeout(() => res(false), this.config.shutdownGraceMs))),
      ]);
      clearTimeout(timer);
      if (!graceful) this.logger.error({ graceMs: this.config.shutdownGraceMs }, 'the running reconcile did not finish within the grace period');
      // Released only once nothing is written any more; after an ungraceful stop a write may still be in
      // flight, so the lease is left to expire.
      if (!this.deps.embedded) await this.leadership?.stop(graceful);
      await this.server?.close();
      await this.approvals?.close();
      await this.notifier?.close();
      await this.connection?.close();
      this.logger.info({ graceful }, 'stopped');
      return { graceful };
    })();
    return this.stopping;
  }

  private fire(reason: TriggerReason): void {
    if (this.leadership && !this.leadership.leading) {
      this.logger.debug({ reason }, 'standing by: no reconcile (another replica holds the lease)');
      return;
    }
    this.trigger(reason).catch((err: unknown) => {
      if (!(err instanceof RunnerStoppedError)) this.logger.error({ err, reason }, 'trigger failed');
    });
  }

  /** POST /reconcile (the fleet's, for one of its organizations, too). */
  requestReconcile(wait: boolean, full: boolean): Promise<ReconcileAnswer> {
    const standby = this.leadership !== undefined && !this.leadership.leading;
    return answerReconcile({ stopping: this.stopping !== undefined, standby, running: this.runner.running, trigger: (r) => this.trigger(r), logger: this.logger, manifestsDir: this.config.manifestsDir }, wait, full);
  }

  /** POST /approve: only the leader holds the waiting plan (approvals are kept in memory). */
  requestApproval(body: unknown): ReconcileAnswer {
    if (this.leadership && !this.leadership.leading) return { status: 503, body: { error: STANDBY, standby: true } };
    return this.approvals!.approve(body);
  }

  /**
   * Start reading the live state a scoped run of this load would read, while the debounce waits: a save is then
   * planned as soon as the quiet time ends, not one fetch later. Reads only; never on a follower, never while a
   * run is writing, never for what would be a full run; a read that fails is left to the run to repeat.
   */
  private readAhead(desired: DesiredState): void {
    // With the informer a run reads from the kept reads: nothing to read ahead.
    if (this.informer || this.runActive || (this.leadership && !this.leadership.leading) || !this.connection) return;
    const decision = this.scoping.peek(['watch'], desired);
    if (decision.type !== 'scoped') return;
    const live = fetchLive(this.connection.client, this.kinds, desired, { ...this.planOptions(), scope: new Set(decision.scopes) });
    live.catch(() => {}); // the run reads again
    this.ahead = { desired, scopes: decision.scopes.join('\n'), epoch: this.runEpoch, live };
  }

  private planOptions(): { prune: DaemonConfig['prune']; invite: DaemonConfig['invite'] } {
    return { prune: this.config.prune, invite: this.config.invite };
  }

  private async runOnce(reasons: TriggerReason[]): Promise<RunRecord> {
    if (this.leadership && !this.leadership.leading) return this.standbyRun(reasons);
    const writeGate = this.leadership?.writeGate();
    // What was read ahead counts only if no run started since it was read.
    const ahead = this.ahead?.epoch === this.runEpoch ? this.ahead : undefined;
    this.ahead = undefined;
    this.runEpoch++;
    this.runActive = true;
    try {
      return await this.reconcileWith(reasons, writeGate, ahead);
    } finally {
      this.runActive = false;
    }
  }

  private async reconcileWith(reasons: TriggerReason[], writeGate: ReturnType<Leadership['writeGate']> | undefined, ahead: Daemon['ahead']): Promise<RunRecord> {
    const c = this.config;
    const record = await reconcileRun(
      {
        manifestsDir: c.manifestsDir,
        kinds: this.kinds,
        env: this.env,
        client: this.connection!.client,
        mode: c.mode,
        planOptions: this.planOptions(),
        concurrency: c.concurrency,
        safety: resolveSafetyConfig(c.safety ?? {}),
        journalDir: c.journalDir,
        signal: this.abort.signal,
        ...(writeGate ? { writeGate } : {}),
        logger: this.logger,
        metrics: this.metrics,
        // Who made the drift: the audit events, read after the diff when there is drift (src/audit).
        annotate: (plan) => attributeDrift(this.connection!.client, plan, this.kinds),
        ...(this.approvals ? { policy: (p, l, id, log) => this.approvals!.gate(p, l, id, log) } : {}),
        observe: (record, plan, report) => {
          this.approvals?.observe(record.approval !== undefined);
          this.status.observe(record, plan, report);
          this.notifier?.onRun(record, plan, report);
        },
        // The load a file event started, when it is still current; else a fresh one.
        loadManifests: () => (this.preloader ? this.preloader.take() : this.load()),
        scoping: this.scoping,
        readAhead: (desired, scopes) => (ahead && ahead.desired === desired && ahead.scopes === scopes.join('\n') ? ahead.live : undefined),
        whoami: () => this.askWhoami(),
        ...(this.informer ? { liveSource: this.informer.source } : {}),
      },
      ++this.runId,
      reasons,
    );
    this.record(record);
    return record;
  }

  private async startApprovals(policy: NonNullable<DaemonConfig['policy']>): Promise<DaemonApprovals> {
    const c = this.config;
    const { DaemonApprovals } = await import('../policy/daemon-approvals.js');
    return DaemonApprovals.start(
      { policy, manifestsDir: c.manifestsDir, ...(c.approvals ? { approvals: c.approvals } : {}), ...(c.reconcileSecret !== undefined ? { reconcileSecret: c.reconcileSecret } : {}) },
      {
        env: this.env,
        logger: this.logger.child({ component: 'policy' }),
        kinds: this.kinds.map((k) => k.kind),
        trigger: () => this.fire('approval'),
        commit: async () => ((r) => (r?.source === 'git' ? r.commit : undefined))(await manifestsRevision(c.manifestsDir)),
      },
    );
  }

  private askWhoami(): Promise<Whoami> {
    const asked = (this.whoami ??= fetchWhoami(this.connection!.client));
    asked.catch(() => {
      if (this.whoami === asked) this.whoami = undefined;
    });
    return asked;
  }

  /** A run queued before this replica lost the lease: not started (nothing read, nothing written, not recorded). */
  private standbyRun(reasons: TriggerReason[]): RunRecord {
    this.logger.info({ reasons }, 'standing by: the queued reconcile does not run (another replica holds the lease)');
    return { id: ++this.runId, reasons, result: 'interrupted', interrupted: true, interruptedBy: 'lease', mode: this.config.mode, startedAt: new Date().toISOString(), durationMs: 0, error: STANDBY };
  }

  /** Manifests read only the variables the config allows, and never the token or the reconcile secret. */
  private async load(): ReturnType<LoadManifests> {
    const c = this.config;
    const loaded = await (this.deps.loadManifests ?? loadManifests)(c.manifestsDir, this.kinds, {
      env: this.env,
      allowEnv: c.allowEnv ?? [],
      secrets: [...this.connection!.secrets, ...(this.deps.embedded?.secrets ?? []), ...(c.reconcileSecret !== undefined ? [c.reconcileSecret] : [])],
      parseManifest: (file, bytes, o) => this.parseCache.parse(file, bytes, o),
      // Its own config is never data, even inside the manifests directory (it may hold secrets).
      ...(c.configFile !== '' ? { reserved: new Map([[c.configFile, "the daemon's config file"]]) } : {}),
    });
    documentFingerprints(loaded.desired); // computed (and kept) now, while a preload waits out the debounce
    return loaded;
  }

  /** A finished run → readiness state, retry schedule, history, 'run' event. */
  private record(r: RunRecord): void {
    const at = new Date().toISOString();
    // Only a run that succeeded (and was not cut short) is a baseline for the next scoped run.
    this.scoping.settle(r.id, r.result === 'success' && r.interrupted !== true);
    if (r.result === 'invalid_manifests') {
      this.manifests = r.issues
        ? { ok: false, at, problems: r.issues.length, positions: positionsOf(r, this.config.manifestsDir) }
        : { ok: false, at, ...(r.errorType !== undefined ? { errorType: r.errorType } : {}) };
    } else {
      this.manifests = { ok: true, at };
      this.lastGood = { at, documents: r.documents ?? 0 };
    }
    if (r.apiOk !== undefined) {
      this.api = r.apiOk
        ? { ok: true, at }
        : { ok: false, at, ...(r.apiStatus !== undefined ? { status: r.apiStatus } : {}), ...(r.errorType !== undefined ? { errorType: r.errorType } : {}) };
    }

    if (r.result === 'success') this.retrier.succeeded();
    else if (r.result === 'failed' && !this.stopping && !r.interrupted) {
      const next = this.retrier.failed();
      this.metrics.setBackoff(next.delayMs);
      this.logger.warn({ attempt: next.attempt, delayMs: next.delayMs }, 'reconcile failed; retrying after backoff');
      this.emit('retry-scheduled', next);
    } else this.retrier.cancel();
    if (r.result !== 'failed') this.metrics.setBackoff(0);

    this.runs.push(r);
    if (this.runs.length > HISTORY) this.runs.shift();
    this.readiness(); // refresh the docops_ready gauge
    this.emit('run', r);
  }
}
