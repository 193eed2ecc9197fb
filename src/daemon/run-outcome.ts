/**
 * How a daemon reconcile ends, in words and in its record: the log lines and record fields of a plan made (and
 * applied), of an error that stopped it, and of each step as it applies. Apart from the run (src/daemon/run.ts),
 * which decides what to read and plan; this only says what came of it.
 */
import type { ApplyEvent } from '../engine/apply.js';
import type { ReconcileOutcome } from '../engine/run.js';
import { ApiError, PolicyError, SafetyError } from '../model/errors.js';
import type { Plan } from '../model/plan.js';
import type { ApplyReport } from '../model/apply-report.js';
import type { Logger } from '../log.js';
import { stepLine } from '../render/step-line.js';
import type { DaemonMode } from '../config/config.js';
import type { DaemonMetrics } from './metrics.js';
import type { RunRecord } from './run-record.js';

/** A record's fields the run itself knows (its id, reasons, mode, start and duration are added as it finishes). */
export type RunFields = Omit<RunRecord, 'id' | 'reasons' | 'mode' | 'startedAt' | 'durationMs'>;

/** Whether a failed step looked like the API's fault, and the last such status (set by stepLogger's callback). */
export interface ApiTrouble {
  ok: boolean;
  status: number | undefined;
}

type OutcomeRun = {
  mode: DaemonMode;
  signal: AbortSignal;
  documents: number;
  timings: RunRecord['timings'];
  api: ApiTrouble;
};

/** The record of a run whose plan was made, with the lines that say what drifted, what was kept and what applied. */
export function outcomeFields(
  outcome: Pick<ReconcileOutcome, 'plan' | 'report'>,
  run: OutcomeRun,
  log: Logger,
): RunFields {
  const counts = { documents: run.documents, planned: outcome.plan.steps.length };
  // Objects the plan cannot reach fail the run in either mode, however much else went well.
  const blocked = outcome.plan.blocked;
  for (const b of blocked)
    log.error(
      { kind: b.kind, org: b.org, key: b.key, ...(b.source ? { source: b.source } : {}) },
      `blocked: ${b.message}`,
    );
  const blockedError =
    blocked.length > 0 ? { error: `${blocked.length} manifest object(s) blocked: the plan cannot reach them` } : {};
  logReported(outcome.plan, log);
  if (!outcome.report) {
    logDrift(outcome.plan, log);
    log.info(
      { ...counts, warnings: outcome.plan.warnings.length },
      run.mode === 'plan' && counts.planned > 0 ? 'drift found (plan mode: nothing written)' : 'reconcile done',
    );
    return { result: blocked.length > 0 ? 'failed' : 'success', ...counts, apiOk: true, ...blockedError };
  }
  return appliedFields(outcome.report, { ...counts, blocked: blocked.length, blockedError }, run, log);
}

/** Drift the ownership modes leave alone is said in either mode: it is never written (src/engine/modes.ts). */
function logReported(plan: Plan, log: Logger): void {
  for (const x of plan.reported ?? []) {
    log.info(
      {
        step: x.id,
        kind: x.kind,
        org: x.org,
        key: x.key,
        action: x.action,
        ...(x.mode ? { mode: x.mode } : {}),
        ...(x.drift ? { drift: x.drift } : {}),
        before: x.before,
        after: x.after,
      },
      x.drift ? `drift kept (drift: ${x.drift}): not reverted` : 'drift reported (ownership mode: not written)',
    );
  }
}

/** Plan mode: say what drifted, not only how much (steps carry no secrets by design). */
function logDrift(plan: Plan, log: Logger): void {
  for (const step of plan.steps) {
    log.info(
      {
        step: step.id,
        kind: step.kind,
        org: step.org,
        key: step.key,
        action: step.action,
        before: step.before,
        after: step.after,
      },
      'drift',
    );
  }
}

/** The record of a run that applied: what it wrote, failed or skipped, and what stopped it. */
function appliedFields(
  r: ApplyReport,
  plan: { documents: number; planned: number; blocked: number; blockedError: { error?: string } },
  run: OutcomeRun,
  log: Logger,
): RunFields {
  const { blocked, blockedError, ...counts } = plan;
  const tally = { ...counts, applied: r.applied.length, failed: r.failed.length, skipped: r.skipped.length };
  // The lost lease first: it may have stopped the apply during a shutdown too, and it is the stricter stop.
  const interruptedBy =
    r.stopped !== undefined ? 'lease' : run.signal.aborted && r.skipped.length > 0 ? 'shutdown' : undefined;
  const interrupted = interruptedBy !== undefined;
  const ok = r.failed.length === 0 && !interrupted && blocked === 0;
  // Half-created objects are said in a sentence each, not only as step ids of failures.
  for (const x of r.incomplete)
    log.error({ step: x.stepId, kind: x.kind, key: x.key, id: x.id }, `left behind: ${x.summary}`);
  const apiOk = run.api.ok && r.unreachable === undefined;
  const what =
    interruptedBy === 'lease'
      ? `apply interrupted, nothing further written: ${r.stopped}`
      : interruptedBy === 'shutdown'
        ? 'apply stopped by shutdown'
        : r.unreachable !== undefined
          ? `apply stopped, the API is unreachable (${r.unreachable}); the ${r.skipped.length} step(s) not started were not attempted`
          : r.failed.length > 0
            ? 'apply finished with failed steps'
            : blocked > 0
              ? 'applied what the plan could reach; some objects are blocked'
              : 'reconcile applied';
  log[ok ? 'info' : 'error']({ ...tally, timings: run.timings }, what);
  return {
    result: ok ? 'success' : interrupted ? 'interrupted' : 'failed',
    ...tally,
    apiOk,
    ...(!apiOk && run.api.status !== undefined ? { apiStatus: run.api.status } : {}),
    ...(interrupted ? { interrupted, interruptedBy } : {}),
    ...blockedError,
    ...(r.failed.length > 0 ? { error: `${r.failed.length} step(s) failed` } : {}),
  };
}

/** The record of a run an error stopped after its manifests loaded: refused by a gate, or failed. */
export function errorFields(err: unknown, plan: Plan | undefined, documents: number, log: Logger): RunFields {
  const planned = plan ? { planned: plan.steps.length } : {};
  if (err instanceof SafetyError) {
    log.error({ violations: err.violations }, 'safety gate refused the plan; nothing written');
    return {
      result: 'refused',
      documents,
      ...planned,
      apiOk: true,
      error: err.message,
      errorType: typeOf(err),
      violations: err.violations.map((v) => ({ rule: v.rule, message: v.message })),
    };
  }
  if (err instanceof PolicyError) {
    const waits = err.approvalChecksum !== undefined ? { approval: { checksum: err.approvalChecksum } } : {};
    log.error(
      { rules: [...new Set(err.hits.map((h) => h.rule))], ...waits },
      err.approvalChecksum !== undefined
        ? 'the plan waits for approval; nothing written'
        : 'policy refused the plan; nothing written',
    );
    const violations = err.hits.map((h) => ({
      rule: `policy ${h.rule}`,
      message: `${h.object}: ${h.message}${h.error ? ` (${h.error})` : ''}`,
    }));
    return {
      result: 'refused',
      documents,
      ...planned,
      apiOk: true,
      error: err.message,
      errorType: typeOf(err),
      violations,
      ...waits,
    };
  }
  // Errors other than API failures (e.g. live state that cannot be matched) mean the API did answer.
  const apiFailure = err instanceof ApiError || !(err instanceof Error && 'exitCode' in err);
  // One line per failed run; the stack (and cause chain) only at debug level.
  log.error({ error: message(err), errorType: typeOf(err) }, 'reconcile failed');
  log.debug({ err }, 'reconcile failed (stack)');
  const status = err instanceof ApiError && err.status !== undefined ? { apiStatus: err.status } : {};
  return {
    result: 'failed',
    documents,
    ...planned,
    apiOk: !apiFailure,
    error: message(err),
    errorType: typeOf(err),
    ...status,
  };
}

/** One log line per step, metrics per applied/failed step; notes in `api` whether a failure looks like the API's fault. */
/**
 * Logs each step's outcome and counts it. The counters count changes of objects, not steps: the steps of one object
 * and action in a run (a team's create, then its members) are one change, counted applied at its first applied
 * step and failed at its first failed one.
 */
export function stepLogger(log: Logger, metrics: DaemonMetrics, api: ApiTrouble) {
  const counted = new Set<string>();
  const once = (step: ApplyEvent['step'], outcome: string): boolean => {
    const key = JSON.stringify([outcome, step.kind, step.org, step.key, step.action]);
    if (counted.has(key)) return false;
    counted.add(key);
    return true;
  };
  return (event: ApplyEvent): void => {
    const { step } = event;
    // `change` says what the step does in words (the pretty log shows it after the message instead of these fields).
    const fields = {
      step: step.id,
      kind: step.kind,
      org: step.org,
      key: step.key,
      action: step.action,
      change: stepLine(step),
    };
    if (event.type === 'done') {
      if (once(step, 'applied')) metrics.stepApplied(step.kind, step.action);
      log.info({ ...fields, durationMs: Math.round(event.durationMs) }, 'applied');
    } else if (event.type === 'failed') {
      if (once(step, 'failed')) metrics.stepFailed(step.kind, step.action);
      const e = event.error;
      if (e instanceof ApiError && (e.status === undefined || e.status >= 500 || e.status === 429)) {
        api.ok = false;
        api.status = e.status;
      }
      // Its sentence at error level, as the apply report says it; the stack only at debug.
      log.error(
        { ...fields, ...(step.source ? { source: step.source } : {}), error: e.message, errorType: typeOf(e) },
        'step failed',
      );
      log.debug({ step: step.id, err: e }, 'step failed (stack)');
    } else if (event.type === 'skipped') {
      log.warn({ ...fields, reason: event.reason }, 'step skipped');
    } else if (event.type === 'recovered') {
      log.warn(
        { ...fields, request: event.request, outcome: event.outcome },
        'create may have reached the server: looked it up',
      );
    }
  };
}

export function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function typeOf(err: unknown): string {
  return err instanceof Error ? err.name : typeof err;
}
