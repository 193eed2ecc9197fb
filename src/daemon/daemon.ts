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
import { registerSecret } from '../secrets.js';
import { Notifier } from './notify/index.js';
import { ScopeTracker } from './changes.js';
import { createRetrier, systemClock, type Retrier } from './backoff.js';
import type { DaemonConfig } from './config.js';
import { connectApi, type Connection } from './connect.js';
import type { Leadership } from './ha/leadership.js';
import type { DaemonApprovals } from '../policy/daemon-approvals.js';
import type { DriftKeeper } from './drift/propose.js';
import { leaderReadiness, standbyReadiness, STANDBY, type ApiState, type ManifestsState } from './readiness.js';
import { createDaemonMetrics, type DaemonMetrics } from './metrics.js';
import type { RunRecord } from './run.js';
import { Reconciler } from './reconciler.js';
import { startApprovals } from './start-approvals.js';
import { positionsOf, publicRun } from './run-view.js';
import { StatusTracker } from './status/tracker.js';
import { answerReconcile } from './http-reconcile.js';
import { createInformerLink, type InformerLink } from './informer/link.js';
import { daemonEndpoints } from './daemon-http.js';
import { startDaemonServer, type DaemonServer, type ReconcileAnswer, type Readiness } from './server.js';
import type { DaemonDeps } from './daemon-deps.js';
import { createCoalescingRunner, nodeCronScheduler, RunnerStoppedError, watchManifests, type CoalescingRunner, type ManifestWatcher, type TriggerReason } from './triggers.js';

export type { DaemonDeps, EmbeddedIn } from './daemon-deps.js';
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
  /** How each run is made: its load, what it reads ahead, its context. */
  private readonly reconciler: Reconciler;
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
  /** Full or scoped runs (src/daemon/changes.ts). */
  private readonly scoping: ScopeTracker;
  /** With a `policy:`: its gate and the approvals (src/policy, loaded only then). */
  approvals: DaemonApprovals | undefined;
  /** With a kind whose drift is reported or proposed (`kinds: {K: {drift: …}}`): src/daemon/drift. */
  private driftKeeper: DriftKeeper | undefined;
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
    this.runner = createCoalescingRunner((reasons) => this.reconciler.run(reasons));
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
      proposal: () => this.driftKeeper?.view ?? null,
      informer: () => this.informer?.status(),
    });
    const targets = config.notify ?? [];
    this.notifier =
      targets.length > 0
        ? new Notifier(targets, { logger: this.logger.child({ component: 'notify' }), ...(deps.notifyRetry ? { retry: deps.notifyRetry } : {}), statusUrl: () => this.statusUrl() })
        : undefined;
    // What else decides a plan besides the documents: a different value makes the next run full.
    const planConfig = JSON.stringify([config.manifestsDir, config.prune, config.invite, config.allowEnv ?? [], config.kinds ?? {}]);
    this.scoping = new ScopeTracker(this.kinds, planConfig, config.mode);
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
      informer: () => this.informer,
      approvals: () => this.approvals,
      driftKeeper: () => this.driftKeeper,
      record: (r) => this.record(r),
    });
  }

  /** Connect, serve HTTP, watch, schedule, and start the initial run (not awaited: see firstRun). */
  async start(): Promise<void> {
    const c = this.config;
    resolveSafetyConfig(c.safety ?? {}); // a bad safety section fails the start, not the first apply
    if (c.policy) this.approvals = await startApprovals(c, c.policy, { env: this.env, logger: this.logger, kinds: this.kinds, fire: () => this.fire('approval') });
    if (Object.values(c.kinds ?? {}).some((k) => k.drift !== undefined && k.drift !== 'revert')) {
      this.driftKeeper = await (await import('./drift/start.js')).startDriftKeeper(c, this.kinds, this.env);
    }
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
    this.server = await startDaemonServer(this.config.listen, daemonEndpoints(this));
  }

  /** The file watch (with its preloads), the schedule and the informer's polls. */
  private async watch(): Promise<void> {
    const c = this.config;
    const preloader = this.reconciler.preload();
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
      this.informer = createInformerLink(c.informer, { kinds: this.kinds, client, metrics: this.metrics, logger: this.logger, clock: this.deps.clock ?? systemClock, selfId: async () => (await this.reconciler.askWhoami()).id });
      // A poll between runs, only where a run could follow it: never on a standby, during a run or when stopping.
      this.informer?.start(
        () => !this.reconciler.active && !this.runner.running && this.stopping === undefined && (!this.leadership || this.leadership.leading),
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
      this.reconciler.stop();
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
