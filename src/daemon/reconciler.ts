/**
 * How the daemon makes one run: the manifests it plans from (the load a file event started, else a fresh one),
 * the live state a scoped run reads while the save's debounce waits, the token's user (asked once), and the
 * parts its stages are built with (run-stages.ts). When a run happens, and what its record changes (readiness, retries, history), is
 * the Daemon's (daemon.ts).
 */
import { configModes } from '../engine/modes.js';
import { fetchLive, type PlanOptions } from '../engine/reconcile.js';
import { documentFingerprints } from '../engine/scope.js';
import type { Logger } from '../log.js';
import { loadManifests } from '../manifests/index.js';
import type { Env } from '../manifests/interpolate.js';
import type { KindDefinition } from '../model/kind.js';
import type { DesiredState, LiveState } from '../model/state.js';
import type { DaemonApprovals } from '../policy/daemon-approvals.js';
import type { Whoami } from '../safety/gate.js';
import { fetchWhoami, resolveSafetyConfig } from '../safety/index.js';
import type { ScopeTracker } from './changes.js';
import type { DocopsConfig } from '../config/config.js';
import type { Connection } from './connect.js';
import type { Leadership } from './ha/leadership.js';
import type { InformerLink } from './informer/link.js';
import type { DriftKeeper } from './drift/propose.js';
import type { DaemonMetrics } from './metrics.js';
import type { Notifier } from './notify/index.js';
import { createParseCache } from './parse-cache.js';
import { createPreloader, directoryFingerprint, PRELOAD_QUIET_MS, type Preloader } from './preload.js';
import { STANDBY } from './readiness.js';
import { reconcileRun, type LoadManifests, type RunRecord } from './run.js';
import { DaemonStages, type DaemonRunParts } from './run-stages.js';
import type { WriteGate } from '../engine/apply.js';
import type { StatusTracker } from './status/tracker.js';
import type { TriggerReason } from './triggers.js';

/** What a run is made with: the daemon's parts, and those it starts later (read when a run happens). */
export interface ReconcilerParts {
  config: DocopsConfig;
  env: Env;
  kinds: readonly KindDefinition[];
  logger: Logger;
  metrics: DaemonMetrics;
  /** Aborted on shutdown (RunHost.signal). */
  signal: AbortSignal;
  scoping: ScopeTracker;
  status: StatusTracker;
  notifier: Notifier | undefined;
  loadManifests: LoadManifests | undefined;
  /** Values no manifest variable may carry besides the token (a fleet's other organizations' tokens). */
  secrets?: readonly string[];
  /** Undefined until the daemon has connected. */
  connection(): Connection | undefined;
  leadership(): Leadership | undefined;
  informer(): InformerLink | undefined;
  approvals(): DaemonApprovals | undefined;
  /** With a kind whose drift is reported or proposed (`kinds: {K: {drift: …}}`): src/daemon/drift. */
  driftKeeper(): DriftKeeper | undefined;
  /** A finished run's record (not a standby's, which never started). */
  record(record: RunRecord): void;
  /** The time, for what the stages schedule by the clock (docs health; default Date.now). */
  now?: () => number;
}

export class Reconciler {
  private runId = 0;
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
  /** The stages of each run, and what they keep between runs. */
  private readonly stages: DaemonStages;

  constructor(private readonly p: ReconcilerParts) {
    this.stages = new DaemonStages(p.config, p.now);
  }

  /** Whether a run is going now. */
  get active(): boolean {
    return this.runActive;
  }

  /** From now on a file event starts loading the manifests (and reading ahead) while the debounce waits. */
  preload(): Preloader<Awaited<ReturnType<LoadManifests>>> {
    const load = (): ReturnType<LoadManifests> =>
      this.load().then((loaded) => {
        this.readAhead(loaded.desired);
        return loaded;
      });
    return (this.preloader = createPreloader(load, PRELOAD_QUIET_MS, () =>
      directoryFingerprint(this.p.config.manifestsDir),
    ));
  }

  stop(): void {
    this.preloader?.cancel();
  }

  /**
   * Start reading the live state a scoped run of this load would read, while the debounce waits: a save is then
   * planned as soon as the quiet time ends, not one fetch later. Reads only; never on a follower, never while a
   * run is writing, never for what would be a full run; a read that fails is left to the run to repeat.
   */
  private readAhead(desired: DesiredState): void {
    const leadership = this.p.leadership();
    // With the informer a run reads from the kept reads: nothing to read ahead.
    const connection = this.p.connection();
    if (this.p.informer() || this.runActive || (leadership && !leadership.leading) || !connection) return;
    const decision = this.p.scoping.peek(['watch'], desired);
    if (decision.type !== 'scoped') return;
    const live = fetchLive(connection.client, this.p.kinds, desired, {
      ...this.planOptions(),
      scope: new Set(decision.scopes),
    });
    live.catch(() => {}); // the run reads again
    this.ahead = { desired, scopes: decision.scopes.join('\n'), epoch: this.runEpoch, live };
  }

  private planOptions(): PlanOptions {
    return { prune: this.p.config.prune, invite: this.p.config.invite, modes: configModes(this.p.config.kinds ?? {}) };
  }

  async run(reasons: TriggerReason[]): Promise<RunRecord> {
    const leadership = this.p.leadership();
    if (leadership && !leadership.leading) return this.standbyRun(reasons);
    const writeGate = leadership?.writeGate();
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

  private async reconcileWith(
    reasons: TriggerReason[],
    writeGate: ReturnType<Leadership['writeGate']> | undefined,
    ahead: Reconciler['ahead'],
  ): Promise<RunRecord> {
    const client = this.p.connection()!.client;
    const approvals = this.p.approvals();
    const parts = this.runParts(writeGate, ahead);
    const record = await reconcileRun(
      {
        mode: this.p.config.mode,
        kinds: this.p.kinds,
        client,
        logger: this.p.logger,
        metrics: this.p.metrics,
        signal: this.p.signal,
        stages: (run) => this.stages.for(parts, run),
        observe: (record, plan, report) => {
          approvals?.observe(record, report);
          this.p.status.observe(record, plan, report);
          this.p.notifier?.onRun(record, plan, report);
        },
      },
      ++this.runId,
      reasons,
    );
    // What this run wrote that lists may not show yet is kept for the next process (a restart, a takeover).
    if (record.applied !== undefined && record.applied > 0)
      await this.p
        .connection()
        ?.remember?.()
        .catch((err: unknown) =>
          this.p.logger.warn({ err }, 'cannot keep what the run wrote (lists that answer late)'),
        );
    this.p.record(record);
    return record;
  }

  /** What this run's stages are built with (run-stages.ts): the config's settings and the parts started by now. */
  private runParts(writeGate: WriteGate | undefined, ahead: Reconciler['ahead']): DaemonRunParts {
    const c = this.p.config;
    const approvals = this.p.approvals();
    const informer = this.p.informer();
    const drift = this.p.driftKeeper();
    return {
      metrics: this.p.metrics,
      planOptions: this.planOptions(),
      safety: resolveSafetyConfig(c.safety ?? {}),
      journalDir: c.journalDir,
      concurrency: c.concurrency,
      signal: this.p.signal,
      ...(writeGate ? { writeGate } : {}),
      // The load a file event started, when it is still current; else a fresh one.
      load: () => (this.preloader ? this.preloader.take() : this.load()),
      scoping: this.p.scoping,
      whoami: () => this.askWhoami(),
      readAhead: (desired, scopes) =>
        ahead && ahead.desired === desired && ahead.scopes === scopes.join('\n') ? ahead.live : undefined,
      ...(informer ? { informer: informer.source } : {}),
      ...(drift ? { drift } : {}),
      ...(approvals ? { policy: (p, l, id, log) => approvals.gate(p, l, id, log) } : {}),
    };
  }

  askWhoami(): Promise<Whoami> {
    const asked = (this.whoami ??= fetchWhoami(this.p.connection()!.client));
    asked.catch(() => {
      if (this.whoami === asked) this.whoami = undefined;
    });
    return asked;
  }

  /** A run queued before this replica lost the lease: not started (nothing read, nothing written, not recorded). */
  private standbyRun(reasons: TriggerReason[]): RunRecord {
    this.p.logger.info({ reasons }, 'standing by: the queued reconcile does not run (another replica holds the lease)');
    return {
      id: ++this.runId,
      reasons,
      result: 'interrupted',
      interrupted: true,
      interruptedBy: 'lease',
      mode: this.p.config.mode,
      startedAt: new Date().toISOString(),
      durationMs: 0,
      error: STANDBY,
    };
  }

  /** Manifests read only the variables the config allows, and never the token or the reconcile secret. */
  private async load(): ReturnType<LoadManifests> {
    const c = this.p.config;
    const loaded = await (this.p.loadManifests ?? loadManifests)(c.manifestsDir, this.p.kinds, {
      env: this.p.env,
      allowEnv: c.allowEnv ?? [],
      secrets: [
        ...this.p.connection()!.secrets,
        ...(this.p.secrets ?? []),
        ...(c.reconcileSecret !== undefined ? [c.reconcileSecret] : []),
      ],
      parseManifest: (file, bytes, o) => this.parseCache.parse(file, bytes, o),
      // Its own config is never data, even inside the manifests directory (it may hold secrets).
      ...(c.configFile !== '' ? { reserved: new Map([[c.configFile, "the daemon's config file"]]) } : {}),
    });
    documentFingerprints(loaded.desired); // computed (and kept) now, while a preload waits out the debounce
    return loaded;
  }
}
