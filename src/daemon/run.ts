/**
 * One daemon reconcile: load the manifests, then the shared pipeline (reconcileOnce: fetch → diff → plan →
 * [safety gate → apply]). Never throws: every outcome becomes a RunRecord, which the daemon turns into
 * readiness, metrics, logs and retries. Manifests that fail to load never reach the API.
 */
import type { ApiClient } from '../model/api-client.js';
import type { ApplyEvent, WriteGate } from '../engine/apply.js';
import type { ApplyReport } from '../model/apply-report.js';
import { ApiError, PolicyError, SafetyError, ValidationError, formatIssue, type ValidationIssue } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan, Step } from '../model/plan.js';
import type { PlanOptions } from '../engine/reconcile.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { reconcileOnce } from '../engine/run.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import type { LoadOptions } from '../manifests/load.js';
import { stepLine } from '../render/step-line.js';
import { countDesired, createJournal, fetchWhoami, safetyGate, type SafetyConfig } from '../safety/index.js';
import type { Whoami } from '../safety/gate.js';
import { scopeNames, type RunScope } from './changes.js';
import { matchOperation } from '../scopes/operations.js';
import type { LiveSource } from './informer/link.js';
import type { OrgRead } from './informer/informer.js';
import { pollDecision } from './informer/poll-run.js';
import { markManifestChanges } from './origin.js';
import type { DaemonMode } from './config.js';
import { readHealth, type SpaceHealth } from './health.js';
import type { DaemonMetrics, RunResult } from './metrics.js';
import type { TriggerReason } from './triggers.js';

export type LoadManifests = (
  dir: string,
  kinds: readonly KindDefinition[],
  options: { env: Env; allowEnv?: readonly string[]; secrets?: readonly string[]; parseManifest?: LoadOptions['parseManifest']; reserved?: LoadOptions['reserved'] },
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
  scoping?: { decide(runId: number, reasons: readonly TriggerReason[], desired: DesiredState): RunScope; reached?(): DesiredState | undefined; peek?(reasons: readonly TriggerReason[], desired: DesiredState): RunScope };
  /** The token's user for the safety gate's guards (the daemon keeps it); default: asked for at each gate. */
  whoami?: () => Promise<Whoami>;
  /** The live state of a scoped run's scopes over this very load, read while the debounce waited (daemon.ts). */
  readAhead?: (desired: DesiredState, scopes: readonly string[]) => Promise<LiveState> | undefined;
  /** The policy gate (src/policy/daemon-gate.ts), after the safety gate; throws PolicyError to refuse or to wait for approval. */
  policy?: (plan: Plan, live: LiveState, run: number, log: Logger) => Promise<void>;
  /** Where the live state comes from: the informer (src/daemon/informer); absent: read fresh by every run. */
  liveSource?: LiveSource;
}

export interface RunRecord {
  id: number;
  reasons: TriggerReason[];
  result: RunResult;
  mode: DaemonMode;
  startedAt: string;
  durationMs: number;
  /** Manifest documents loaded (absent when the load failed). */
  documents?: number;
  /** Steps the plan held (drift) when the API was reached. */
  planned?: number;
  applied?: number;
  failed?: number;
  skipped?: number;
  /** Manifest problems, when result is invalid_manifests. */
  issues?: ValidationIssue[];
  /** The full message (for logs and in-process callers; the HTTP endpoints never show it: it may quote content). */
  error?: string;
  /** The class of the error that ended the run (`ApiError`, `ConflictError` …), safe to show anywhere. */
  errorType?: string;
  /** The HTTP status of the API answer that ended the run (absent: none, or no answer arrived). */
  apiStatus?: number;
  /** Whether the API answered as it should: undefined when not contacted. */
  apiOk?: boolean;
  /** A scoped run: whether it planned from the live state read while the debounce waited (daemon.ts readAhead). */
  readAhead?: boolean;
  /** Milliseconds spent loading the manifests, planning (reads, diff, safety gate) and applying; a phase not reached is absent. */
  timings?: { loadMs?: number; planMs?: number; applyMs?: number };
  /** Whether shutdown or the loss of the lease stopped the apply before every step ran (result `interrupted`). */
  interrupted?: boolean;
  /** Why the safety gate or the policy refused the plan (result `refused`). */
  violations?: { rule: string; message: string }[];
  /** A refused plan that waits for an approval of this checksum (src/policy). */
  approval?: { checksum: string };
  /** The broken links of each managed space the run's live state holds (src/daemon/health.ts). */
  health?: SpaceHealth[];
  /** What stopped it. */
  interruptedBy?: 'shutdown' | 'lease';
  /** A full reconcile, or one scoped to `scopes` (absent when the manifests did not load: no plan was made). */
  scope?: 'full' | 'scoped';
  /** Why the run is full (`scope: 'full'`). */
  fullBecause?: string;
  /** The scoped run's scopes as `Kind/org`: those whose documents changed, and all it fetched and diffed. */
  scopes?: { changed: string[]; reconciled: string[] };
  /** How each organization's live state was read (with an informer): from its audit events, or whole and why. */
  reads?: OrgRead[];
}

export async function reconcileRun(ctx: RunContext, id: number, reasons: TriggerReason[]): Promise<RunRecord> {
  const started = performance.now();
  const base = { id, reasons, mode: ctx.mode, startedAt: new Date().toISOString() };
  const log = ctx.logger.child({ run: id });
  let plan: Plan | undefined;
  let report: ApplyReport | undefined;
  let scopeFields: Pick<RunRecord, 'scope' | 'fullBecause' | 'scopes' | 'readAhead' | 'reads'> = {};
  let health: SpaceHealth[] | undefined;
  const finish = (record: Omit<RunRecord, keyof typeof base | 'durationMs'>): RunRecord => {
    const full: RunRecord = { ...base, ...record, ...scopeFields, ...(health ? { health } : {}), timings, durationMs: Math.round(performance.now() - started) };
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
    for (const issue of issues ?? []) log.error({ file: issue.file, line: issue.line, column: issue.column }, `invalid manifest: ${formatIssue(issue)}`);
    if (!issues) log.error({ err }, 'cannot load manifests');
    return finish({ result: 'invalid_manifests', ...(issues ? { issues } : {}), error: message(err), errorType: typeOf(err) });
  }
  ctx.metrics.manifestLoad(0);
  const documents = loaded.documents.length;
  const decided = ctx.scoping?.decide(id, reasons, loaded.desired) ?? { type: 'full', why: 'scoped reconciles are off' };
  // A run only the informer's poll started plans the organizations it found changed (and any manifest change).
  const pending = ctx.liveSource?.takePending();
  const decision = pending && reasons.every((r) => r === 'poll') ? pollDecision(ctx.scoping, loaded.desired, pending) : decided;
  scopeFields =
    decision.type === 'full'
      ? { scope: 'full', fullBecause: decision.why }
      : { scope: 'scoped', scopes: { changed: scopeNames(decision.changed), reconciled: scopeNames(decision.scopes) } };
  log.info(scopeFields, decision.type === 'full' ? 'full reconcile' : 'scoped reconcile');
  const planOptions = decision.type === 'scoped' ? { ...ctx.planOptions, scope: new Set(decision.scopes) } : ctx.planOptions;
  // A scoped plan says nothing about the kinds it did not diff: their drift gauges keep their values.
  const driftKinds = decision.type === 'scoped' ? [...new Set(decision.scopes.map((k) => k.slice(0, k.indexOf('\u0000'))))] : ctx.kinds.map((k) => k.kind);
  const setDrift = (p: Plan): void => ctx.metrics.setDrift(driftKinds, p, decision.type === 'scoped');

  let apiOk = true;
  let stepApiStatus: number | undefined;
  const onStep = stepLogger(log, ctx.metrics, (failedForApi, status) => {
    if (!failedForApi) return;
    apiOk = false;
    stepApiStatus = status;
  });
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
    let ahead = decision.type === 'scoped' && !ctx.liveSource ? ctx.readAhead?.(loaded.desired, decision.scopes) : undefined;
    if (ctx.liveSource) {
      // The informer's read fails the run when it fails: never a silent full read instead.
      const read = await ctx.liveSource.read(loaded.desired, ctx.planOptions, { ...(decision.type === 'scoped' ? { scope: new Set(decision.scopes) } : {}), ...(reasons.includes('full') ? { full: true } : {}) });
      ahead = Promise.resolve(read.live);
      scopeFields = { ...scopeFields, reads: read.orgs };
    }
    const reached = ctx.scoping?.reached?.();
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
        return ctx.annotate ? ctx.annotate(marked) : marked;
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
    if (applyStarted !== undefined && outcome.report) timings.applyMs = since(applyStarted);
    report = outcome.report;
    // What the apply wrote is read again now: the next run plans from reads it can vouch for.
    if (ctx.liveSource && outcome.report) await ctx.liveSource.wrote(outcome.plan, outcome.report, loaded.desired, ctx.planOptions);
    setDrift(outcome.plan);
    health = await readHealth(ctx.client, loaded.desired, outcome.live, log);
    if (health) ctx.metrics.setBrokenLinks(health, decision.type === 'scoped');
    const counts = { documents, planned: outcome.plan.steps.length };
    // Objects the plan cannot reach fail the run in either mode, however much else went well.
    const blocked = outcome.plan.blocked;
    for (const b of blocked) log.error({ kind: b.kind, org: b.org, key: b.key, ...(b.source ? { source: b.source } : {}) }, `blocked: ${b.message}`);
    const blockedError = blocked.length > 0 ? { error: `${blocked.length} manifest object(s) blocked: the plan cannot reach them` } : {};
    if (!outcome.report) {
      // Plan mode: say what drifted, not only how much (steps carry no secrets by design).
      for (const step of outcome.plan.steps) {
        log.info({ step: step.id, kind: step.kind, org: step.org, key: step.key, action: step.action, before: step.before, after: step.after }, 'drift');
      }
      log.info({ ...counts, warnings: outcome.plan.warnings.length }, ctx.mode === 'plan' && counts.planned > 0 ? 'drift found (plan mode: nothing written)' : 'reconcile done');
      return finish({ result: blocked.length > 0 ? 'failed' : 'success', ...counts, apiOk: true, ...blockedError });
    }
    const r = outcome.report;
    const tally = { ...counts, applied: r.applied.length, failed: r.failed.length, skipped: r.skipped.length };
    // The lost lease first: it may have stopped the apply during a shutdown too, and it is the stricter stop.
    const interruptedBy = r.stopped !== undefined ? 'lease' : ctx.signal.aborted && r.skipped.length > 0 ? 'shutdown' : undefined;
    const interrupted = interruptedBy !== undefined;
    const ok = r.failed.length === 0 && !interrupted && blocked.length === 0;
    // Half-created objects are said in a sentence each, not only as step ids of failures.
    for (const x of r.incomplete) log.error({ step: x.stepId, kind: x.kind, key: x.key, id: x.id }, `left behind: ${x.summary}`);
    if (r.unreachable !== undefined) apiOk = false;
    const what =
      interruptedBy === 'lease'
        ? `apply interrupted, nothing further written: ${r.stopped}`
        : interruptedBy === 'shutdown'
          ? 'apply stopped by shutdown'
          : r.unreachable !== undefined
            ? `apply stopped, the API is unreachable (${r.unreachable}); the ${r.skipped.length} step(s) not started were not attempted`
            : r.failed.length > 0
              ? 'apply finished with failed steps'
              : blocked.length > 0
                ? 'applied what the plan could reach; some objects are blocked'
                : 'reconcile applied';
    log[ok ? 'info' : 'error']({ ...tally, timings }, what);
    return finish({
      result: ok ? 'success' : interrupted ? 'interrupted' : 'failed',
      ...tally,
      apiOk,
      ...(!apiOk && stepApiStatus !== undefined ? { apiStatus: stepApiStatus } : {}),
      ...(interrupted ? { interrupted, interruptedBy } : {}),
      ...blockedError,
      ...(r.failed.length > 0 ? { error: `${r.failed.length} step(s) failed` } : {}),
    });
  } catch (err) {
    const planned = plan ? { planned: (plan as Plan).steps.length } : {};
    if (err instanceof SafetyError) {
      log.error({ violations: err.violations }, 'safety gate refused the plan; nothing written');
      return finish({ result: 'refused', documents, ...planned, apiOk: true, error: err.message, errorType: typeOf(err), violations: err.violations.map((v) => ({ rule: v.rule, message: v.message })) });
    }
    if (err instanceof PolicyError) {
      const waits = err.approvalChecksum !== undefined ? { approval: { checksum: err.approvalChecksum } } : {};
      log.error({ rules: [...new Set(err.hits.map((h) => h.rule))], ...waits }, err.approvalChecksum !== undefined ? 'the plan waits for approval; nothing written' : 'policy refused the plan; nothing written');
      const violations = err.hits.map((h) => ({ rule: `policy ${h.rule}`, message: `${h.object}: ${h.message}${h.error ? ` (${h.error})` : ''}` }));
      return finish({ result: 'refused', documents, ...planned, apiOk: true, error: err.message, errorType: typeOf(err), violations, ...waits });
    }
    // Errors other than API failures (e.g. live state that cannot be matched) mean the API did answer.
    const apiFailure = err instanceof ApiError || !(err instanceof Error && 'exitCode' in err);
    // One line per failed run; the stack (and cause chain) only at debug level.
    log.error({ error: message(err), errorType: typeOf(err) }, 'reconcile failed');
    log.debug({ err }, 'reconcile failed (stack)');
    const status = err instanceof ApiError && err.status !== undefined ? { apiStatus: err.status } : {};
    return finish({ result: 'failed', documents, ...planned, apiOk: !apiFailure, error: message(err), errorType: typeOf(err), ...status });
  }
}

/** One log line per step, metrics per applied/failed step; reports whether a failure looks like the API's fault. */
function stepLogger(log: Logger, metrics: DaemonMetrics, apiTrouble: (yes: boolean, status: number | undefined) => void) {
  return (event: ApplyEvent): void => {
    const { step } = event;
    // `change` says what the step does in words (the pretty log shows it after the message instead of these fields).
    const fields = { step: step.id, kind: step.kind, org: step.org, key: step.key, action: step.action, change: stepLine(step) };
    if (event.type === 'done') {
      metrics.stepApplied(step.kind, step.action);
      log.info({ ...fields, durationMs: Math.round(event.durationMs) }, 'applied');
    } else if (event.type === 'failed') {
      metrics.stepFailed(step.kind, step.action);
      const e = event.error;
      const api = e instanceof ApiError;
      apiTrouble(api ? e.status === undefined || e.status >= 500 || e.status === 429 : false, api ? e.status : undefined);
      log.error({ ...fields, err: e }, 'step failed');
    } else if (event.type === 'skipped') {
      log.warn({ ...fields, reason: event.reason }, 'step skipped');
    } else if (event.type === 'recovered') {
      log.warn({ ...fields, request: event.request, outcome: event.outcome }, 'create may have reached the server: looked it up');
    }
  };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function typeOf(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}
