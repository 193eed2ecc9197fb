/**
 * The long-lived reconciler: triggers (file watch, cron, HTTP, retries) → one coalescing runner →
 * reconcileRun → readiness, metrics, backoff. Events: 'run' (RunRecord) after every run,
 * 'retry-scheduled' ({attempt, delayMs}) when a failed run will be retried.
 */
import { EventEmitter } from 'node:events';
import type { KindDefinition } from '../model/kind.js';
import { KINDS } from '../kinds/index.js';
import { createLogger, type Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import type { RunningSandbox } from '@docops/sandbox';
import { resolveSafetyConfig } from '../safety/index.js';
import { allProblems, rejections } from '../model/errors.js';
import { readTokenFile } from '../config/tokens.js';
import { registerSecret } from '../secrets.js';
import type { Notifier } from './notify/index.js';
import { planConfigOf, ScopeTracker } from './changes.js';
import { createRetrier, systemClock, type Retrier } from './backoff.js';
import type { DocopsConfig } from '../config/config.js';
import { connectApi, type Connection } from './connect.js';
import type { Leadership } from './ha/leadership.js';
import type { DaemonApprovals } from '../policy/daemon-approvals.js';
import type { DriftKeeper } from './drift/propose.js';
import { STANDBY } from './readiness.js';
import { createDaemonMetrics, type DaemonMetrics } from './metrics.js';
import type { RunRecord } from './run.js';
import { Reconciler } from './reconciler.js';
import { startApprovals } from './start-approvals.js';
import { RunBook } from './run-book.js';
import type { StatusTracker } from './status/tracker.js';
import { runObservers } from './run-observers.js';
import { answerReconcile } from './http-reconcile.js';
import { daemonEndpoints } from './daemon-http.js';
import { startDaemonServer, type DaemonServer, type ReconcileAnswer, type Readiness } from './server.js';
import type { DaemonDeps } from './daemon-deps.js';
import { createCoalescingRunner, RunnerStoppedError, type CoalescingRunner, type TriggerReason } from './triggers.js';
import { shutDown } from './shutdown.js';
import { startWatching, type Watching } from './watch.js';

export type { DaemonDeps } from './daemon-deps.js';

export class Daemon extends EventEmitter {
  readonly metrics: DaemonMetrics;
  readonly logger: Logger;
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
  /** The finished runs and the state they left (readiness, retries). */
  private readonly book: RunBook;
  private readonly abort = new AbortController();
  /** How each run is made: its load, what it reads ahead, its context. */
  private readonly reconciler: Reconciler;
  private connection: Connection | undefined;
  private server: DaemonServer | undefined;
  /** The file watch, the schedule and the informer (src/daemon/informer, when on: it follows the audit log). */
  private watching: Watching | undefined;
  /** With `ha`: only the holder of the lease reconciles. */
  private leadership: Leadership | undefined;
  private stopping: Promise<{ graceful: boolean }> | undefined;
  /** Full or scoped runs (src/daemon/changes.ts). */
  private readonly scoping: ScopeTracker;
  /** With a `policy:`: its gate and the approvals (src/policy, loaded only then). */
  approvals: DaemonApprovals | undefined;
  /** With a kind whose drift is reported or proposed (`kinds: {K: {drift: …}}`): src/daemon/drift. */
  private driftKeeper: DriftKeeper | undefined;

  constructor(
    readonly config: DocopsConfig,
    private readonly deps: DaemonDeps = {},
  ) {
    super();
    this.env = deps.env ?? process.env;
    this.kinds = deps.kinds ?? KINDS;
    this.logger = deps.logger ?? createLogger({ level: config.logLevel, env: this.env });
    this.metrics = deps.embedded?.metrics ?? createDaemonMetrics({ defaultMetrics: deps.defaultMetrics !== false });
    this.leadership = deps.embedded?.leadership;
    this.runner = createCoalescingRunner((reasons) => this.reconciler.run(reasons));
    this.retrier = createRetrier(config.retry, () => this.fire('retry'), deps.clock ?? systemClock, deps.random);
    this.book = new RunBook(config.manifestsDir, this.retrier, {
      metrics: this.metrics,
      logger: this.logger,
      retryScheduled: (next) => this.emit('retry-scheduled', next),
    });
    registerSecret(config.reconcileSecret);
    ({ status: this.status, notifier: this.notifier } = runObservers(config, deps, this.logger, {
      // `single` without leader election; with it the elector's role (a follower is a standby).
      role: () =>
        !this.elects
          ? 'single'
          : ((r) => (r === 'follower' ? 'standby' : r))(this.leadership?.status().role ?? 'starting'),
      readiness: () => this.readiness(),
      approval: () => this.approvals?.view() ?? null,
      proposal: () => this.driftKeeper?.view ?? null,
      informer: () => this.watching?.informer?.status(),
      statusUrl: () => this.statusUrl(),
    }));
    this.scoping = new ScopeTracker(this.kinds, planConfigOf(config), config.mode);
    this.reconciler = new Reconciler({
      config,
      env: this.env,
      kinds: this.kinds,
      logger: this.logger,
      metrics: this.metrics,
      signal: this.abort.signal,
      scoping: this.scoping,
      status: this.status,
      notifier: this.notifier,
      loadManifests: deps.loadManifests,
      ...(deps.embedded?.secrets ? { secrets: deps.embedded.secrets } : {}),
      connection: () => this.connection,
      leadership: () => this.leadership,
      informer: () => this.watching?.informer,
      approvals: () => this.approvals,
      driftKeeper: () => this.driftKeeper,
      record: (r) => this.record(r),
      ...(deps.clock?.now ? { now: () => deps.clock!.now!() } : {}),
    });
  }

  /** Connect, serve HTTP, watch, schedule, and start the initial run (not awaited: see firstRun). */
  async start(): Promise<void> {
    const c = this.config;
    resolveSafetyConfig(c.safety ?? {}); // a bad safety section fails the start, not the first apply
    // What the config names and only the start reads (tokens, their files), side by side: every problem at once.
    const drift = Object.values(c.kinds ?? {}).some((k) => k.drift !== undefined && k.drift !== 'revert');
    const [approvals, keeper, token] = await Promise.allSettled([
      c.policy
        ? startApprovals(c, c.policy, {
            env: this.env,
            logger: this.logger,
            kinds: this.kinds,
            fire: () => this.fire('approval'),
          })
        : undefined,
      drift ? import('./drift/start.js').then((m) => m.startDriftKeeper(c, this.kinds, this.env)) : undefined,
      (async () => {
        if (c.tokenFile !== undefined && !c.sandbox) readTokenFile(c.tokenFile, 'tokenFile', c.at?.tokenFile);
      })(),
    ]);
    const problem = allProblems(rejections([approvals, keeper, token]));
    if (problem) throw problem;
    if (approvals.status === 'fulfilled') this.approvals = approvals.value;
    if (keeper.status === 'fulfilled') this.driftKeeper = keeper.value;
    this.connection = await connectApi(
      c,
      this.env,
      this.logger,
      (info) => this.metrics.apiResponse(info.method, info.status ?? 0),
      this.deps,
    );
    if (this.deps.embedded === undefined) await this.serve();
    await this.watch();
    if (this.deps.embedded) {
      // The fleet elects; this organization's first run comes with the lease (leadershipGained), or now without one.
      if (!this.leadership) this.leadershipGained('start');
      else if (this.leadership.leading) this.leadershipGained('leader');
      return;
    }
    this.logger.info(
      {
        url: this.url,
        manifests: c.manifestsDir,
        mode: c.mode,
        schedule: c.schedule,
        reconcileEndpoint: c.reconcileSecret !== undefined,
        api: this.connection.client.baseUrl,
        ha: c.ha?.mode ?? 'off',
      },
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
    this.server = await startDaemonServer(this.config.listen, daemonEndpoints(this));
  }

  /** The file watch (with its preloads), the schedule and the informer's polls. */
  private async watch(): Promise<void> {
    this.watching = await startWatching(this.config, this.deps, {
      kinds: this.kinds,
      logger: this.logger,
      metrics: this.metrics,
      preloader: this.reconciler.preload(),
      client: () => this.connection!.client,
      selfId: async () => (await this.reconciler.askWhoami()).id,
      fire: (reason) => this.fire(reason),
      mayPoll: () =>
        !this.reconciler.active &&
        !this.runner.running &&
        this.stopping === undefined &&
        (!this.leadership || this.leadership.leading),
    });
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

  /** The most recent runs, newest last. */
  get runs(): RunRecord[] {
    return this.book.runs;
  }

  readiness(): Readiness {
    const r = this.book.readiness({
      stopping: this.stopping !== undefined,
      standby: this.elects && this.leadership?.leading !== true,
      ha: this.leadership?.status(),
    });
    this.metrics.setReady(r.ready);
    return r;
  }

  /**
   * Stop taking triggers, abort the apply (the step in flight finishes, no new step starts), close
   * everything. `graceful` is false when the run did not end within shutdownGraceMs. `quiet`: after a failed start.
   */
  stop(options: { quiet?: boolean } = {}): Promise<{ graceful: boolean }> {
    this.stopping ??= shutDown(
      {
        logger: this.logger,
        graceMs: this.config.shutdownGraceMs,
        runner: this.runner,
        abort: this.abort,
        retrier: this.retrier,
        reconciler: this.reconciler,
        parts: () => ({
          ...this.watching,
          lease: this.deps.embedded ? undefined : this.leadership,
          server: this.server,
          approvals: this.approvals,
          notifier: this.notifier,
          connection: this.connection,
        }),
      },
      options.quiet === true,
    );
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
    return answerReconcile(
      {
        stopping: this.stopping !== undefined,
        standby,
        running: this.runner.running,
        trigger: (r) => this.trigger(r),
        logger: this.logger,
        manifestsDir: this.config.manifestsDir,
      },
      wait,
      full,
    );
  }

  /**
   * POST /approve: taken by the leader, which holds the waiting plan and starts the run (what it takes is kept in
   * the journal directory, where the next leader finds it).
   */
  requestApproval(body: unknown): Promise<ReconcileAnswer> {
    if (this.leadership && !this.leadership.leading)
      return Promise.resolve({ status: 503, body: { error: STANDBY, standby: true } });
    return this.approvals!.approve(body);
  }

  /** A finished run → the scope's baseline, the book (readiness state, retry schedule, history), 'run' event. */
  private record(r: RunRecord): void {
    // Only a run that succeeded (and was not cut short) is a baseline for the next scoped run.
    this.scoping.settle(r.id, r.result === 'success' && r.interrupted !== true);
    this.book.record(r, this.stopping !== undefined);
    this.readiness(); // refresh the docops_ready gauge
    this.emit('run', r);
  }
}
