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
import { incompleteCreates } from './apply-outcome.js';
import { applyUnits } from './batch.js';
import { groups } from './order.js';
import type { Plan } from '../model/plan.js';
import type { ApplyOptions } from './apply-options.js';
import { gateClosed, runBatch, runStep, startRun } from './apply-steps.js';

export type { ApplyEvent, ApplyOptions, WriteGate } from './apply-options.js';

export async function applyPlan(client: ApiClient, plan: Plan, options: ApplyOptions = {}): Promise<ApplyReport> {
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const run = startRun(client, options);
  for (const group of groups(plan.steps)) {
    // Before every ordered group: a closed gate skips this group and every later one (runStep says why).
    gateClosed(run);
    await runBounded(applyUnits(group), concurrency, (unit) =>
      Array.isArray(unit) ? runBatch(run, unit) : runStep(run, unit),
    );
  }
  const { report } = run;
  const failedIds = new Set(report.failed.map((f) => f.stepId));
  report.incomplete = incompleteCreates(plan.steps, report.outputs, run.partial, failedIds, new Set(report.skipped));
  return report;
}

async function runBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
