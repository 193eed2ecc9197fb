/**
 * One daemon reconcile: the run's stages (src/pipeline; the daemon's list is run-stages.ts), then its record.
 * Never throws: every outcome becomes a RunRecord, which the daemon turns into readiness, metrics, logs and
 * retries. Manifests that fail to load never reach the API.
 */
import type { ApiClient } from '../model/api-client.js';
import { ValidationError, formatIssue } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan } from '../model/plan.js';
import type { ApplyReport } from '../model/apply-report.js';
import type { DesiredState } from '../model/state.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import type { LoadOptions } from '../manifests/load.js';
import { PHASES, runStages, type PipelineRun, type Stage, type StageRecord } from '../pipeline/index.js';
import type { RunScope } from './changes.js';
import type { DaemonMode } from '../config/config.js';
import type { DaemonMetrics } from './metrics.js';
import { errorFields, message, outcomeFields, typeOf, type ApiTrouble, type RunFields } from './run-outcome.js';
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

/** A daemon run's state: the pipeline's, and what its record says besides the plan. */
export interface DaemonRun extends PipelineRun {
  readonly id: number;
  readonly reasons: readonly TriggerReason[];
  readonly log: Logger;
  /** Whether a failed step looked like the API's fault (the apply's step logger sets it). */
  readonly api: ApiTrouble;
  /** Manifest documents loaded. */
  documents?: number;
  /** Full or scoped (the scope stage). */
  decision?: RunScope;
  /** Whether the run plans every managed scope: then it may speak for the whole organization. */
  whole?: boolean;
  /** What the stages add to the run's record (its scope, how its live state was read, docs health …), in order. */
  recordFields: Partial<Omit<RunFields, 'result'>>;
  /** The drift kept was settled on this run's plan (which had steps). */
  settled?: boolean;
}

/** What a run is made in: the daemon's stages for it (run-stages.ts), and who hears of its end. */
export interface RunHost {
  mode: DaemonMode;
  kinds: readonly KindDefinition[];
  client: ApiClient;
  logger: Logger;
  metrics: DaemonMetrics;
  /** Aborted on shutdown: steps not yet started are skipped, the one in flight finishes. */
  signal: AbortSignal;
  stages(run: DaemonRun): Stage<DaemonRun>[];
  /** Told, as the run ends, the plan it computed and the apply report (the status page, notifications). */
  observe(record: RunRecord, plan: Plan | undefined, report: ApplyReport | undefined): void;
}

export async function reconcileRun(host: RunHost, id: number, reasons: TriggerReason[]): Promise<RunRecord> {
  const started = performance.now();
  const base = { id, reasons, mode: host.mode, startedAt: new Date().toISOString() };
  const run: DaemonRun = {
    kinds: host.kinds,
    mode: host.mode,
    client: host.client,
    id,
    reasons,
    log: host.logger.child({ run: id }),
    api: { ok: true, status: undefined },
    recordFields: {},
  };
  run.log.info({ reasons }, 'reconcile started');
  const records: StageRecord[] = [];
  let fields: RunFields;
  let timings: NonNullable<RunRecord['timings']> = {};
  try {
    await runStages(run, host.stages(run), records);
    timings = timingsOf(records, started);
    const outcome = { plan: run.plan!, ...(run.report ? { report: run.report } : {}) };
    const documents = run.documents ?? 0;
    fields = outcomeFields(
      outcome,
      { mode: host.mode, signal: host.signal, documents, timings, api: run.api },
      run.log,
    );
  } catch (err) {
    timings = timingsOf(records, started);
    fields = records.at(-1)?.phase === 'load' ? loadFailed(err, host, run.log) : failed(err, run, records);
  }
  const plan = planned(run, records);
  const record: RunRecord = {
    ...base,
    ...fields,
    ...run.recordFields,
    timings,
    durationMs: Math.round(performance.now() - started),
  };
  host.metrics.observeRun(record.result, record.durationMs, record.scope ?? 'full');
  host.observe(record, plan, run.report);
  return record;
}

/** The plan the record speaks of: once the run reached its gates (or, in plan mode, passed them by). */
function planned(run: DaemonRun, records: readonly StageRecord[]): Plan | undefined {
  const gates = PHASES.indexOf('gate');
  return records.some((r) => PHASES.indexOf(r.phase) >= gates) ? run.plan : undefined;
}

function failed(err: unknown, run: DaemonRun, records: readonly StageRecord[]): RunFields {
  return errorFields(err, planned(run, records), run.documents ?? 0, run.log);
}

/**
 * Where a run's time went (run records, logs): loading (from the run's start), planning (its reads, diff, gates and
 * journal: present once the journal is ready) and applying; a phase not reached is absent.
 */
function timingsOf(records: readonly StageRecord[], started: number): NonNullable<RunRecord['timings']> {
  const load = records.find((r) => r.phase === 'load' && r.outcome === 'done');
  const read = records.find((r) => r.phase === 'read');
  const journal = records.find((r) => r.phase === 'journal' && r.outcome === 'done');
  const apply = records.find((r) => r.phase === 'apply' && r.outcome === 'done');
  return {
    ...(load ? { loadMs: Math.round(load.end - started) } : {}),
    ...(read && journal ? { planMs: Math.round(journal.end - read.start) } : {}),
    ...(journal && apply ? { applyMs: Math.round(apply.end - journal.end) } : {}),
  };
}

/** The record of a run whose manifests did not load: said per issue (file:line:column), or in one sentence. */
function loadFailed(err: unknown, host: RunHost, log: Logger): RunFields {
  const issues = err instanceof ValidationError ? err.issues : undefined;
  host.metrics.manifestLoad(issues?.length ?? 1);
  for (const issue of issues ?? [])
    log.error({ file: issue.file, line: issue.line, column: issue.column }, `invalid manifest: ${formatIssue(issue)}`);
  // Without positions the error is one sentence (a missing or unreadable directory): said at error level as the
  // CLI says it; the stack only at debug level.
  if (!issues) {
    log.error({ error: message(err), errorType: typeOf(err) }, `cannot load manifests: ${message(err)}`);
    log.debug({ err }, 'cannot load manifests (stack)');
  }
  return { result: 'invalid_manifests', ...(issues ? { issues } : {}), error: message(err), errorType: typeOf(err) };
}
