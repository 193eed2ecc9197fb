/**
 * The one write gateway: executes a plan's steps in their declared order, one group at a time, the steps of
 * a group concurrently (bounded). A failed step skips every step that depends on it (directly or through a
 * skipped step); independent steps still run. Nothing here decides *what* to write — it only reads the plan.
 */
import type { ApiClient } from '../api/types.js';
import { ApiError } from './errors.js';
import { groups } from './order.js';
import { resolveRequest, type Plan, type Step } from './plan.js';

export type ApplyEvent =
  | { type: 'start'; step: Step }
  | { type: 'done'; step: Step; durationMs: number }
  | { type: 'failed'; step: Step; error: Error; durationMs: number }
  | { type: 'skipped'; step: Step; reason: string };

export interface ApplyOptions {
  concurrency?: number;
  onStep?: (event: ApplyEvent) => void;
  /** Runs before a step's first request (e.g. the safety journal snapshots deletes). A throw fails the step. */
  beforeStep?: (step: Step) => Promise<void>;
  /** When aborted, steps not yet started are skipped; steps in flight finish. */
  signal?: AbortSignal;
}

export interface ApplyReport {
  applied: string[];
  failed: { stepId: string; message: string }[];
  skipped: string[];
  /** Captured outputs (e.g. ids of created objects) by step id. */
  outputs: Record<string, Record<string, string>>;
}

export async function applyPlan(client: ApiClient, plan: Plan, options: ApplyOptions = {}): Promise<ApplyReport> {
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const report: ApplyReport = { applied: [], failed: [], skipped: [], outputs: {} };
  const notOk = new Set<string>();
  const emit = options.onStep ?? (() => {});

  const runStep = async (step: Step): Promise<void> => {
    const blocker = step.dependsOn.find((d) => notOk.has(d));
    if (blocker !== undefined || options.signal?.aborted) {
      notOk.add(step.id);
      report.skipped.push(step.id);
      emit({ type: 'skipped', step, reason: blocker !== undefined ? `depends on ${blocker}, which did not succeed` : 'apply was stopped' });
      return;
    }
    const started = performance.now();
    emit({ type: 'start', step });
    try {
      await options.beforeStep?.(step);
      const outputs: Record<string, string> = {};
      for (const req of step.requests) {
        const lookup = (stepId: string, output: string): string => {
          const v = stepId === step.id ? outputs[output] : report.outputs[stepId]?.[output];
          if (v === undefined) throw new Error(`reference ${stepId}.${output} has no value`);
          return v;
        };
        const { path, body } = resolveRequest(req, lookup);
        // A request that keeps an id from its response creates an object. PUT /orgs/{id}/teams creates too, and
        // re-sending a create the server may already have processed would make a duplicate: retry it like a POST.
        const creates = req.capture !== undefined && Object.keys(req.capture).length > 0;
        const res = await client.request(req.method, path, { ...(body === undefined ? {} : { body }), ...(creates ? { idempotent: false } : {}) });
        for (const [name, at] of Object.entries(req.capture ?? {})) {
          const value = pick(res.body, at);
          if (value === undefined) throw new Error(`response of ${req.method} ${path} has no "${at}" to keep as ${name}`);
          outputs[name] = String(value);
        }
      }
      report.outputs[step.id] = outputs;
      report.applied.push(step.id);
      emit({ type: 'done', step, durationMs: performance.now() - started });
    } catch (err) {
      const error = explainForbidden(err instanceof Error ? err : new Error(String(err)));
      notOk.add(step.id);
      report.failed.push({ stepId: step.id, message: error.message });
      emit({ type: 'failed', step, error, durationMs: performance.now() - started });
    }
  };

  for (const group of groups(plan.steps)) {
    await runBounded(group, concurrency, runStep);
  }
  return report;
}

/** A 403 on a write: the token may not change the organization. Say so whatever the server's wording is. */
function explainForbidden(err: Error): Error {
  if (!(err instanceof ApiError) || err.status !== 403) return err;
  const hint = 'the token may lack permission for this change; apply usually needs a token with admin rights';
  return new ApiError(err.method, err.path, err.status, `${err.apiMessage} (${hint})`, { cause: err });
}

/** A dotted path into a JSON body (`id`, `users.0`). */
function pick(body: unknown, at: string): unknown {
  let v: unknown = body;
  for (const part of at.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

async function runBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
