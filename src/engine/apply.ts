/**
 * The one write gateway: executes a plan's steps in their declared order, one group at a time, the steps of
 * a group concurrently (bounded). A failed step skips every step that depends on it (directly or through a
 * skipped step); independent steps still run. Nothing here decides *what* to write — it only reads the plan.
 *
 * Beyond sending the plan's requests, apply waits where a request says the server finishes it later
 * (`RequestSpec.settle`: reads until the plan's conditions hold, and fails the step when the server shows a
 * failure field), and does two things decided by what the API client says about a failure (ApiError.effect /
 * .unreachable):
 *  - a create that may have reached the server is never re-sent blindly: with the request's `recover` (see
 *    RecoverSpec in plan.ts) apply reads the list and goes on with the object it finds, or sends the create again
 *    only when the object is not there. A DELETE answered 404 after an attempt that may have deleted is done.
 *  - when the API is unreachable, the steps in flight finish (with their retries) and every step not yet started
 *    is skipped with the reason "API unreachable"; the report says what was and was not applied.
 * A request with `merge` (MergeSpec in plan.ts) is a read-modify-write: apply GETs its path right before sending
 * and lays the plan's body over what it read.
 */
import type { ApiClient } from '../model/api-client.js';
import type { ApplyReport } from '../model/apply-report.js';
import { incompleteCreates, type PartialStep } from './apply-outcome.js';
import { applyUnits, batchBody, batchOutcomes, batchRequest, elementCount, refusal } from './batch.js';
import { ApiError } from '../model/errors.js';
import { mergePatch } from './merge.js';
import { groups } from './order.js';
import type { Plan, Step } from '../model/plan.js';
import { resolveRequest } from '../model/refs.js';
import { pick } from './recover.js';
import { send, WritesStoppedError, type RecoveredEvent } from './send.js';
import { settle } from './settle.js';

export { describeIncomplete } from './apply-outcome.js';
export { WritesStoppedError } from './send.js';

export type ApplyEvent =
  | { type: 'start'; step: Step }
  | { type: 'done'; step: Step; durationMs: number }
  | { type: 'failed'; step: Step; error: Error; durationMs: number }
  | { type: 'skipped'; step: Step; reason: string }
  | RecoveredEvent;

export interface ApplyOptions {
  concurrency?: number;
  onStep?: (event: ApplyEvent) => void;
  /** Runs before a step's first request (e.g. the safety journal snapshots deletes). A throw fails the step. */
  beforeStep?: (step: Step) => Promise<void>;
  /** When aborted, steps not yet started are skipped; steps in flight finish. */
  signal?: AbortSignal;
  /**
   * Whether writing may go on, asked before every ordered group, every step and every request: once it gives a
   * reason, nothing further is sent (not even the rest of a step in flight) and every step not finished is
   * skipped or failed with that reason (`ApplyReport.stopped`). Its `signal` aborts a request waiting to be sent
   * or between retries. Generic: the daemon's leader election answers it (src/daemon/ha), the core knows no
   * more than "may I write".
   */
  writeGate?: WriteGate;
  /** Waits between the reads of a request's `settle` (src/engine/settle.ts); tests pass one that returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The OAuth scopes the API gives a request (src/scopes): a write refused with 403 names what the token lacks.
   * Absent, the refusal says only that the token may not make it.
   */
  scopesOf?: (method: string, path: string) => readonly string[] | undefined;
}

export interface WriteGate {
  /** undefined while writing may go on; else why it must stop (for the rest of this apply). */
  check(): string | undefined;
  /** Aborted when writing must stop: a request not yet sent, or waiting to be retried, is not sent. */
  signal?: AbortSignal;
}

export const UNREACHABLE_REASON = 'API unreachable';

export async function applyPlan(client: ApiClient, plan: Plan, options: ApplyOptions = {}): Promise<ApplyReport> {
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const report: ApplyReport = { applied: [], failed: [], skipped: [], skipReasons: {}, incomplete: [], outputs: {} };
  const notOk = new Set<string>();
  /** Per kind: why its writes stopped — the API refused one with 403, so the token may write none of that kind. */
  const refused = new Map<string, string>();
  const partial = new Map<string, PartialStep>();
  const emit = options.onStep ?? (() => {});

  /** The write gate's answer, kept once it said stop: no later check may reopen it within this apply. */
  const gateClosed = (): string | undefined => {
    if (report.stopped === undefined && options.writeGate) {
      const why =
        options.writeGate.check() ??
        (options.writeGate.signal?.aborted === true ? 'the write gate was closed' : undefined);
      if (why !== undefined) report.stopped = why;
    }
    return report.stopped;
  };

  const skip = (step: Step, reason: string): void => {
    notOk.add(step.id);
    report.skipped.push(step.id);
    report.skipReasons[step.id] = reason;
    emit({ type: 'skipped', step, reason });
  };

  /** Why a step must not start (and skip it, saying so), or false when it may. */
  const skipped = (step: Step): boolean => {
    const blocker = step.dependsOn.find((d) => notOk.has(d));
    const kindRefused = refused.get(step.kind);
    const why =
      report.unreachable !== undefined
        ? UNREACHABLE_REASON
        : gateClosed() !== undefined
          ? `writing stopped: ${report.stopped}`
          : blocker !== undefined
            ? `depends on ${blocker}, which did not succeed`
            : options.signal?.aborted
              ? 'apply was stopped'
              : kindRefused;
    if (why === undefined) return false;
    skip(step, why);
    return true;
  };

  const succeeded = (step: Step, outputs: Record<string, string>, started: number): void => {
    report.outputs[step.id] = outputs;
    report.applied.push(step.id);
    emit({ type: 'done', step, durationMs: performance.now() - started });
  };

  /** A step failed at its request `at` (sent as `sent`), with the outputs it had kept. */
  const failed = (
    step: Step,
    err: unknown,
    started: number,
    outputs: Record<string, string> = {},
    at = 0,
    sent = '',
  ): void => {
    const error = explainForbidden(err instanceof Error ? err : new Error(String(err)), options.scopesOf);
    if (error instanceof ApiError && error.status === 403 && !refused.has(step.kind)) {
      refused.set(
        step.kind,
        `the token may not write ${step.kind} (${error.method} ${error.path} was refused with 403${scopeHint(error, options.scopesOf)})`,
      );
    }
    notOk.add(step.id);
    report.failed.push({ stepId: step.id, message: error.message });
    if (outputs['id'] !== undefined) {
      // The object exists; what the rest of the step would have done does not.
      report.outputs[step.id] = outputs;
      partial.set(step.id, { id: step.id, failedAt: at, request: sent, message: error.message });
    }
    // A request the gate's signal cut short failed because the gate closed: say so.
    if (options.writeGate?.signal?.aborted === true) gateClosed();
    if (isUnreachable(error) && report.stopped === undefined) report.unreachable ??= error.message;
    emit({ type: 'failed', step, error, durationMs: performance.now() - started });
  };

  const runStep = async (step: Step): Promise<void> => {
    if (skipped(step)) return;
    const started = performance.now();
    emit({ type: 'start', step });
    const outputs: Record<string, string> = {};
    let at = 0;
    let sent = '';
    try {
      await options.beforeStep?.(step);
      for (; at < step.requests.length; at++) {
        const req = step.requests[at]!;
        const lookup = (stepId: string, output: string): string => {
          const v = stepId === step.id ? outputs[output] : report.outputs[stepId]?.[output];
          if (v === undefined) throw new Error(`reference ${stepId}.${output} has no value`);
          return v;
        };
        const { path, body: planned } = resolveRequest(req, lookup);
        const stop = gateClosed();
        if (stop !== undefined) throw new WritesStoppedError(stop);
        sent = `${req.method} ${path}`;
        // A read-modify-write sends the object as the server holds it now, with the plan's values laid over it.
        const body = req.merge ? mergePatch(await client.get(path), planned, req.merge) : planned;
        const answer = await send(client, step, req, path, body, emit, {
          gate: gateClosed,
          signal: options.writeGate?.signal,
          ...(options.sleep ? { sleep: options.sleep } : {}),
        });
        const refused = refusal(req, answer);
        if (refused !== undefined) throw new Error(refused);
        for (const [name, where] of Object.entries(req.capture ?? {})) {
          const value = pick(answer, where);
          if (value === undefined)
            throw new Error(`response of ${req.method} ${path} has no "${where}" to keep as ${name}`);
          outputs[name] = String(value);
        }
        if (req.settle)
          await settle(client, req.settle, sent, {
            ...(options.sleep ? { sleep: options.sleep } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          });
      }
      succeeded(step, outputs, started);
    } catch (err) {
      failed(step, err, started, outputs, at, sent);
    }
  };

  /**
   * Steps whose batched requests go as one (BatchSpec): each is checked and journaled like a step alone, the rest
   * is sent in one request, and each step succeeds or fails by its own results. A failure of the request itself
   * fails every step in it.
   */
  const runBatch = async (steps: readonly Step[]): Promise<void> => {
    const ready: { step: Step; path: string; body: unknown; started: number }[] = [];
    for (const step of steps) {
      if (skipped(step)) continue;
      const started = performance.now();
      emit({ type: 'start', step });
      try {
        await options.beforeStep?.(step);
        const req = step.requests[0]!;
        const { path, body } = resolveRequest(req, (stepId, output) => {
          const v = report.outputs[stepId]?.[output];
          if (v === undefined) throw new Error(`reference ${stepId}.${output} has no value`);
          return v;
        });
        ready.push({ step, path, body, started });
      } catch (err) {
        failed(step, err, started);
      }
    }
    const first = ready[0];
    if (!first) return;
    const req = batchRequest(first.step)!;
    const sent = `${req.method} ${first.path}`;
    try {
      const stop = gateClosed();
      if (stop !== undefined) throw new WritesStoppedError(stop);
      const body = batchBody(
        req.batch,
        ready.map((r) => r.body),
      );
      const answer = await send(client, first.step, req, first.path, body, emit, {
        gate: gateClosed,
        signal: options.writeGate?.signal,
        ...(options.sleep ? { sleep: options.sleep } : {}),
      });
      const outcomes = batchOutcomes(
        req.batch,
        ready.map((r) => elementCount(batchRequest(r.step)!)),
        answer,
        sent,
      );
      ready.forEach((r, i) => {
        const why = outcomes[i];
        if (why === undefined) succeeded(r.step, {}, r.started);
        else failed(r.step, new Error(`${sent}: ${why}`), r.started);
      });
    } catch (err) {
      for (const r of ready) failed(r.step, err, r.started, {}, 0, sent);
    }
  };

  for (const group of groups(plan.steps)) {
    // Before every ordered group: a closed gate skips this group and every later one (runStep says why).
    gateClosed();
    await runBounded(applyUnits(group), concurrency, (unit) => (Array.isArray(unit) ? runBatch(unit) : runStep(unit)));
  }
  const failedIds = new Set(report.failed.map((f) => f.stepId));
  report.incomplete = incompleteCreates(plan.steps, report.outputs, partial, failedIds, new Set(report.skipped));
  return report;
}

/** The API did not answer at all (see ApiError.unreachable), also when a lookup after a failed create showed it. */
function isUnreachable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof ApiError && e.unreachable) return true;
  }
  return false;
}

/** `; it needs the scope site:write`, when the API names the request's scopes. */
function scopeHint(err: ApiError, scopesOf: ApplyOptions['scopesOf']): string {
  const scopes = scopesOf?.(err.method, err.path) ?? [];
  return scopes.length === 0 ? '' : `; it needs the scope ${scopes.join(' or ')}`;
}

/** A 403 on a write: the token may not change the organization. Say so whatever the server's wording is, with the scope it needs. */
function explainForbidden(err: Error, scopesOf: ApplyOptions['scopesOf']): Error {
  if (!(err instanceof ApiError) || err.status !== 403) return err;
  const needs = scopeHint(err, scopesOf);
  const hint = `the token may lack permission for this change${needs}; apply usually needs a token with admin rights`;
  return new ApiError(err.method, err.path, err.status, `${err.apiMessage} (${hint})`, {
    cause: err,
    ...(err.effect ? { effect: err.effect } : {}),
    unreachable: err.unreachable,
  });
}

async function runBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
