/**
 * One daemon reconcile: load the manifests, then the shared pipeline (reconcileOnce: fetch → diff → plan →
 * [safety gate → apply]). Never throws: every outcome becomes a RunRecord, which the daemon turns into
 * readiness, metrics, logs and retries. Manifests that fail to load never reach the API.
 */
import type { ApiClient } from '../model/api-client.js';
import type { WriteGate } from '../engine/apply.js';
import type { ApplyReport } from '../model/apply-report.js';
import { ValidationError, formatIssue } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan, Step } from '../model/plan.js';
import type { PlanOptions } from '../engine/reconcile.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { reconcileOnce } from '../engine/run.js';
import { managedScopes } from '../engine/scope.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import type { LoadOptions } from '../manifests/load.js';
import { countDesired, createJournal, fetchWhoami, safetyGate, type SafetyConfig } from '../safety/index.js';
import type { Whoami } from '../safety/gate.js';
import { scopeNames, type RunScope } from './changes.js';
import { matchOperation } from '../scopes/operations.js';
import type { LiveSource } from './informer/link.js';
import { pollDecision } from './informer/poll-run.js';
import type { DriftKeeper } from './drift/propose.js';
import { markManifestChanges } from './origin.js';
import type { DaemonMode } from '../config/config.js';
import { readHealth, type HealthSchedule, type SpaceHealth } from './health.js';
import type { DaemonMetrics } from './metrics.js';
import {
  errorFields,
  message,
  outcomeFields,
  stepLogger,
  typeOf,
  type ApiTrouble,
  type RunFields,
} from './run-outcome.js';
import type { RunRecord } from './run-record.js';
import type { TriggerReason } from './triggers.js';

export type { RunRecord } from './run-record.js';

export type LoadManifests = (
  dir: string,
  kinds: readonly KindDefinition[],
  options: {
    env: Env;
    allowEnv?: readonly string[];
    secrets?: readonly string[];
    parseManifest?: LoadOptions['parseManifest'];
    reserved?: LoadOptions['reserved'];
  },
) => Promise<{ documents: unknown[]; desired: DesiredState }>;

export interface RunContext {
  manifestsDir: string;
  kinds: readonly KindDefinition[];
  env: Env;
  client: ApiClient;
  mode: DaemonMode;
  planOptions: PlanOptions;
  concurrency: number;
  safety: SafetyConfig;
  journalDir: string;
  /** Aborted on shutdown: steps not yet started are skipped, the one in flight finishes. */
  signal: AbortSignal;
  /** With leader election: closes the moment this replica may no longer write (see ApplyOptions.writeGate). */
  writeGate?: WriteGate;
  logger: Logger;
  metrics: DaemonMetrics;
  loadManifests: LoadManifests;
  /** Annotates a plan with steps after the diff (who made the drift, src/audit); must not throw. */
  annotate?: (plan: Plan) => Promise<Plan>;
  /** Told, as the run ends, the plan it computed and the apply report (the status page, notifications). */
  observe?: (record: RunRecord, plan: Plan | undefined, report: ApplyReport | undefined) => void;
  /**
   * Decides full or scoped after the load (src/daemon/changes.ts); absent: every run is full. `reached` is the
   * desired state of the last successful run: the plan's steps it explains are drift, the others manifest edits.
   */
  scoping?: {
    decide(runId: number, reasons: readonly TriggerReason[], desired: DesiredState): RunScope;
    reached?(): DesiredState | undefined;
    peek?(reasons: readonly TriggerReason[], desired: DesiredState): RunScope;
  };
  /** The token's user for the safety gate's guards (the daemon keeps it); default: asked for at each gate. */
  whoami?: () => Promise<Whoami>;
  /** The live state of a scoped run's scopes over this very load, read while the debounce waited (daemon.ts). */
  readAhead?: (desired: DesiredState, scopes: readonly string[]) => Promise<LiveState> | undefined;
  /** The policy gate (src/policy/daemon-gate.ts), after the safety gate; throws PolicyError to refuse or to wait for approval. */
  policy?: (plan: Plan, live: LiveState, run: number, log: Logger) => Promise<void>;
  /** Where the live state comes from: the informer (src/daemon/informer); absent: read fresh by every run. */
  liveSource?: LiveSource;
  /** Drift the config keeps (`drift: report | propose`, src/daemon/drift); absent: all drift is reverted. Must not throw. */
  drift?: Pick<DriftKeeper, 'settle' | 'quiet'>;
  /** When docs health is read (src/daemon/health.ts); absent: never. */
  health?: HealthSchedule;
}

export async function reconcileRun(ctx: RunContext, id: number, reasons: TriggerReason[]): Promise<RunRecord> {
  const started = performance.now();
  const base = { id, reasons, mode: ctx.mode, startedAt: new Date().toISOString() };
  const log = ctx.logger.child({ run: id });
  let plan: Plan | undefined;
  let report: ApplyReport | undefined;
  let scopeFields: Pick<RunRecord, 'scope' | 'fullBecause' | 'scopes' | 'readAhead' | 'reads'> = {};
  let health: SpaceHealth[] | undefined;
  const finish = (record: RunFields): RunRecord => {
    const full: RunRecord = {
      ...base,
      ...record,
      ...scopeFields,
      ...(health ? { health } : {}),
      timings,
      durationMs: Math.round(performance.now() - started),
    };
    ctx.metrics.observeRun(full.result, full.durationMs, full.scope ?? 'full');
    ctx.observe?.(full, plan, report);
    return full;
  };
  log.info({ reasons }, 'reconcile started');

  let loaded: { documents: unknown[]; desired: DesiredState };
  // Where a run's time goes (run records, logs): loading, planning (reads + diff + gate), applying.
  const timings: NonNullable<RunRecord['timings']> = {};
  const since = (t: number): number => Math.round(performance.now() - t);
  try {
    loaded = await ctx.loadManifests(ctx.manifestsDir, ctx.kinds, { env: ctx.env });
    timings.loadMs = since(started);
  } catch (err) {
    const issues = err instanceof ValidationError ? err.issues : undefined;
    ctx.metrics.manifestLoad(issues?.length ?? 1);
    for (const issue of issues ?? [])
      log.error(
        { file: issue.file, line: issue.line, column: issue.column },
        `invalid manifest: ${formatIssue(issue)}`,
      );
    // Without positions the error is one sentence (a missing or unreadable directory): said at error level as the
    // CLI says it; the stack only at debug level.
    if (!issues) {
      log.error({ error: message(err), errorType: typeOf(err) }, `cannot load manifests: ${message(err)}`);
      log.debug({ err }, 'cannot load manifests (stack)');
    }
    return finish({
      result: 'invalid_manifests',
      ...(issues ? { issues } : {}),
      error: message(err),
      errorType: typeOf(err),
    });
  }
  ctx.metrics.manifestLoad(0);
  const documents = loaded.documents.length;
  const decided = ctx.scoping?.decide(id, reasons, loaded.desired) ?? {
    type: 'full',
    why: 'scoped reconciles are off',
  };
  // A run only the informer's poll started plans the organizations it found changed (and any manifest change);
  // what a poll found waits for a run the poll started (another run may not plan it).
  const pending = reasons.includes('poll') ? ctx.liveSource?.takePending() : undefined;
  const decision =
    pending && reasons.every((r) => r === 'poll') ? pollDecision(ctx.scoping, loaded.desired, pending) : decided;
  scopeFields =
    decision.type === 'full'
      ? { scope: 'full', fullBecause: decision.why }
      : { scope: 'scoped', scopes: { changed: scopeNames(decision.changed), reconciled: scopeNames(decision.scopes) } };
  log.info(scopeFields, decision.type === 'full' ? 'full reconcile' : 'scoped reconcile');
  const planOptions =
    decision.type === 'scoped' ? { ...ctx.planOptions, scope: new Set(decision.scopes) } : ctx.planOptions;
  // A run that plans every managed scope may speak for the whole organization (close a drift proposal, read docs
  // health); a scoped run speaks only for its scopes.
  const whole = decision.type === 'full' || [...managedScopes(loaded.desired)].every((k) => planOptions.scope?.has(k));
  // A scoped plan says nothing about the kinds it did not diff: their drift gauges keep their values.
  const driftKinds =
    decision.type === 'scoped'
      ? [...new Set(decision.scopes.map((k) => k.slice(0, k.indexOf('\u0000'))))]
      : ctx.kinds.map((k) => k.kind);
  const setDrift = (p: Plan): void => ctx.metrics.setDrift(driftKinds, p, decision.type === 'scoped');

  const api: ApiTrouble = { ok: true, status: undefined };
  const onStep = stepLogger(log, ctx.metrics, api);
  const planStarted = performance.now();
  let applyStarted: number | undefined;
  try {
    let journal: ((step: Step) => Promise<void>) | undefined;
    const gate = safetyGate(ctx.kinds, {
      config: ctx.safety,
      force: false,
      desiredCount: countDesired(loaded.desired),
      desired: loaded.desired,
      whoami: ctx.whoami ?? (() => fetchWhoami(ctx.client)),
    });
    let ahead =
      decision.type === 'scoped' && !ctx.liveSource ? ctx.readAhead?.(loaded.desired, decision.scopes) : undefined;
    if (ctx.liveSource) {
      // The informer's read fails the run when it fails: never a silent full read instead.
      const read = await ctx.liveSource.read(loaded.desired, ctx.planOptions, {
        ...(decision.type === 'scoped' ? { scope: new Set(decision.scopes) } : {}),
        ...(reasons.includes('full') ? { full: true } : {}),
      });
      ahead = Promise.resolve(read.live);
      scopeFields = { ...scopeFields, reads: read.orgs };
    }
    const reached = ctx.scoping?.reached?.();
    let settled = false;
    if (decision.type === 'scoped' && !ctx.liveSource) scopeFields = { ...scopeFields, readAhead: ahead !== undefined };
    const outcome = await reconcileOnce({
      client: ctx.client,
      kinds: ctx.kinds,
      desired: loaded.desired,
      mode: ctx.mode,
      planOptions,
      ...(ahead ? { live: ahead } : {}),
      annotate: async (p: Plan, live: LiveState) => {
        const marked = markManifestChanges(ctx.kinds, reached, p, live, planOptions, log);
        const annotated = ctx.annotate ? await ctx.annotate(marked) : marked;
        settled = true;
        return ctx.drift
          ? ctx.drift.settle({
              plan: annotated,
              desired: loaded.desired,
              live,
              options: planOptions,
              writes: ctx.mode === 'apply',
              whole,
              log,
            })
          : annotated;
      },
      gate: async (p: Plan, live: LiveState) => {
        plan = p;
        setDrift(p);
        await gate(p, live);
        await ctx.policy?.(p, live, id, log);
        // The journal needs the live state the plan came from: it snapshots each object before its delete.
        journal = createJournal(ctx.journalDir, live, { client: ctx.client, kinds: ctx.kinds }).beforeStep;
        timings.planMs = since(planStarted);
        applyStarted = performance.now();
      },
      apply: {
        concurrency: ctx.concurrency,
        signal: ctx.signal,
        ...(ctx.writeGate ? { writeGate: ctx.writeGate } : {}),
        onStep,
        beforeStep: async (step) => journal?.(step),
        scopesOf: (method, path) => matchOperation(method, path)?.scopes,
      },
    });
    plan = outcome.plan;
    // No step at all: no drift lasts, so a proposal still open is for drift that is gone.
    if (!settled && whole)
      await ctx.drift?.quiet({
        plan: outcome.plan,
        desired: loaded.desired,
        live: outcome.live,
        options: planOptions,
        writes: ctx.mode === 'apply',
        whole,
        log,
      });
    if (applyStarted !== undefined && outcome.report) timings.applyMs = since(applyStarted);
    report = outcome.report;
    // What the apply wrote is read again now: the next run plans from reads it can vouch for.
    if (ctx.liveSource && outcome.report)
      await ctx.liveSource.wrote(outcome.plan, outcome.report, loaded.desired, ctx.planOptions);
    setDrift(outcome.plan);
    if (whole && ctx.health?.due()) {
      const read = await readHealth(ctx.client, loaded.desired, outcome.live, log);
      ctx.health.done(read.read);
      health = read.health;
    }
    if (health) ctx.metrics.setBrokenLinks(health, decision.type === 'scoped');
    return finish(outcomeFields(outcome, { mode: ctx.mode, signal: ctx.signal, documents, timings, api }, log));
  } catch (err) {
    return finish(errorFields(err, plan, documents, log));
  }
}
