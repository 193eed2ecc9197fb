/**
 * The steps of one apply (apply.ts), each a named function over the run's state: whether a step may start (the
 * write gate, its dependencies, the API's reachability, a kind the token may not write), a step's requests in
 * order, a batch of steps sent as one request, and how a success or a failure is recorded and told.
 */
import type { ApiClient } from '../model/api-client.js';
import type { ApplyReport } from '../model/apply-report.js';
import type { PartialStep } from './apply-outcome.js';
import { batchBody, batchOutcomes, batchRequest, elementCount, refusal } from './batch.js';
import { ApiError } from '../model/errors.js';
import { mergePatch } from './merge.js';
import type { Step } from '../model/plan.js';
import type { RequestSpec } from '../model/request.js';
import { resolveRequest } from '../model/refs.js';
import { pick } from './recover.js';
import { send, WritesStoppedError } from './send.js';
import { settle } from './settle.js';
import { UNREACHABLE_REASON, type ApplyEvent, type ApplyOptions } from './apply-options.js';

/** One apply's state: its report as it grows, the steps that did not succeed, and the kinds refused with 403. */
export interface ApplyRun {
  client: ApiClient;
  options: ApplyOptions;
  report: ApplyReport;
  notOk: Set<string>;
  /** Per kind: why its writes stopped — the API refused one with 403, so the token may write none of that kind. */
  refused: Map<string, string>;
  partial: Map<string, PartialStep>;
  emit: (event: ApplyEvent) => void;
}

export function startRun(client: ApiClient, options: ApplyOptions): ApplyRun {
  return {
    client,
    options,
    report: { applied: [], failed: [], skipped: [], skipReasons: {}, incomplete: [], outputs: {} },
    notOk: new Set(),
    refused: new Map(),
    partial: new Map(),
    emit: options.onStep ?? (() => {}),
  };
}

/** The write gate's answer, kept once it said stop: no later check may reopen it within this apply. */
export function gateClosed(run: ApplyRun): string | undefined {
  const { report, options } = run;
  if (report.stopped === undefined && options.writeGate) {
    const why =
      options.writeGate.check() ??
      (options.writeGate.signal?.aborted === true ? 'the write gate was closed' : undefined);
    if (why !== undefined) report.stopped = why;
  }
  return report.stopped;
}

function skip(run: ApplyRun, step: Step, reason: string): void {
  run.notOk.add(step.id);
  run.report.skipped.push(step.id);
  run.report.skipReasons[step.id] = reason;
  run.emit({ type: 'skipped', step, reason });
}

/** Why a step must not start (and skip it, saying so), or false when it may. */
function skipped(run: ApplyRun, step: Step): boolean {
  const { report, options } = run;
  const blocker = step.dependsOn.find((d) => run.notOk.has(d));
  const kindRefused = run.refused.get(step.kind);
  const why =
    report.unreachable !== undefined
      ? UNREACHABLE_REASON
      : gateClosed(run) !== undefined
        ? `writing stopped: ${report.stopped}`
        : blocker !== undefined
          ? `depends on ${blocker}, which did not succeed`
          : options.signal?.aborted
            ? 'apply was stopped'
            : kindRefused;
  if (why === undefined) return false;
  skip(run, step, why);
  return true;
}

function succeeded(run: ApplyRun, step: Step, outputs: Record<string, string>, started: number): void {
  run.report.outputs[step.id] = outputs;
  run.report.applied.push(step.id);
  run.emit({ type: 'done', step, durationMs: performance.now() - started });
}

/** A step failed at its request `at` (sent as `sent`), with the outputs it had kept. */
function failed(
  run: ApplyRun,
  step: Step,
  err: unknown,
  started: number,
  outputs: Record<string, string> = {},
  at = 0,
  sent = '',
): void {
  const { report, options } = run;
  const error = explainForbidden(err instanceof Error ? err : new Error(String(err)), options.scopesOf);
  if (error instanceof ApiError && error.status === 403 && !run.refused.has(step.kind)) {
    run.refused.set(
      step.kind,
      `the token may not write ${step.kind} (${error.method} ${error.path} was refused with 403${scopeHint(error, options.scopesOf)})`,
    );
  }
  run.notOk.add(step.id);
  report.failed.push({ stepId: step.id, message: error.message });
  if (outputs['id'] !== undefined) {
    // The object exists; what the rest of the step would have done does not.
    report.outputs[step.id] = outputs;
    run.partial.set(step.id, { id: step.id, failedAt: at, request: sent, message: error.message });
  }
  // A request the gate's signal cut short failed because the gate closed: say so.
  if (options.writeGate?.signal?.aborted === true) gateClosed(run);
  if (isUnreachable(error) && report.stopped === undefined) report.unreachable ??= error.message;
  run.emit({ type: 'failed', step, error, durationMs: performance.now() - started });
}

/** How apply sends a request: asking the write gate before, and with the test's sleep where one is given. */
const sendOptions = (run: ApplyRun): Parameters<typeof send>[6] => ({
  gate: () => gateClosed(run),
  signal: run.options.writeGate?.signal,
  ...(run.options.sleep ? { sleep: run.options.sleep } : {}),
});

export async function runStep(run: ApplyRun, step: Step): Promise<void> {
  if (skipped(run, step)) return;
  const started = performance.now();
  run.emit({ type: 'start', step });
  const outputs: Record<string, string> = {};
  let at = 0;
  let sent = '';
  try {
    await run.options.beforeStep?.(step);
    for (; at < step.requests.length; at++) {
      const req = step.requests[at]!;
      const lookup = (stepId: string, output: string): string => {
        const v = stepId === step.id ? outputs[output] : run.report.outputs[stepId]?.[output];
        if (v === undefined) throw new Error(`reference ${stepId}.${output} has no value`);
        return v;
      };
      const { path, body: planned } = resolveRequest(req, lookup);
      const stop = gateClosed(run);
      if (stop !== undefined) throw new WritesStoppedError(stop);
      sent = `${req.method} ${path}`;
      await sendRequest(run, step, req, path, planned, outputs);
    }
    succeeded(run, step, outputs, started);
  } catch (err) {
    failed(run, step, err, started, outputs, at, sent);
  }
}

/** One request of a step: sent (a read-modify-write merged first), its answer checked and kept, then settled. */
async function sendRequest(
  run: ApplyRun,
  step: Step,
  req: RequestSpec,
  path: string,
  planned: unknown,
  outputs: Record<string, string>,
): Promise<void> {
  const { client, options } = run;
  const sent = `${req.method} ${path}`;
  // A read-modify-write sends the object as the server holds it now, with the plan's values laid over it.
  const body = req.merge ? mergePatch(await client.get(path), planned, req.merge) : planned;
  const answer = await send(client, step, req, path, body, run.emit, sendOptions(run));
  const refused = refusal(req, answer);
  if (refused !== undefined) throw new Error(refused);
  for (const [name, where] of Object.entries(req.capture ?? {})) {
    const value = pick(answer, where);
    if (value === undefined) throw new Error(`response of ${req.method} ${path} has no "${where}" to keep as ${name}`);
    outputs[name] = String(value);
  }
  if (req.settle)
    await settle(client, req.settle, sent, {
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
}

interface Ready {
  step: Step;
  path: string;
  body: unknown;
  started: number;
}

/**
 * Steps whose batched requests go as one (BatchSpec): each is checked and journaled like a step alone, the rest
 * is sent in one request, and each step succeeds or fails by its own results. A failure of the request itself
 * fails every step in it.
 */
export async function runBatch(run: ApplyRun, steps: readonly Step[]): Promise<void> {
  const ready = await readyForBatch(run, steps);
  const first = ready[0];
  if (!first) return;
  const req = batchRequest(first.step)!;
  const sent = `${req.method} ${first.path}`;
  try {
    const stop = gateClosed(run);
    if (stop !== undefined) throw new WritesStoppedError(stop);
    const body = batchBody(
      req.batch,
      ready.map((r) => r.body),
    );
    const answer = await send(run.client, first.step, req, first.path, body, run.emit, sendOptions(run));
    const outcomes = batchOutcomes(
      req.batch,
      ready.map((r) => elementCount(batchRequest(r.step)!)),
      answer,
      sent,
    );
    ready.forEach((r, i) => {
      const why = outcomes[i];
      if (why === undefined) succeeded(run, r.step, {}, r.started);
      else failed(run, r.step, new Error(`${sent}: ${why}`), r.started);
    });
  } catch (err) {
    for (const r of ready) failed(run, r.step, err, r.started, {}, 0, sent);
  }
}

/** The steps of a batch that may go, each started and journaled like a step alone, with its request resolved. */
async function readyForBatch(run: ApplyRun, steps: readonly Step[]): Promise<Ready[]> {
  const ready: Ready[] = [];
  for (const step of steps) {
    if (skipped(run, step)) continue;
    const started = performance.now();
    run.emit({ type: 'start', step });
    try {
      await run.options.beforeStep?.(step);
      const req = step.requests[0]!;
      const { path, body } = resolveRequest(req, (stepId, output) => {
        const v = run.report.outputs[stepId]?.[output];
        if (v === undefined) throw new Error(`reference ${stepId}.${output} has no value`);
        return v;
      });
      ready.push({ step, path, body, started });
    } catch (err) {
      failed(run, step, err, started);
    }
  }
  return ready;
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
