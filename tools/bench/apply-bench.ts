/** Apply of a plan with many changes against the filled sandbox, and its bound from the plan's own groups. */
import { createClient } from '#src/api/client.js';
import { applyPlan } from '#src/engine/apply.js';
import type { KindDefinition } from '#src/model/kind.js';
import { groupOf, groups } from '#src/engine/order.js';
import { computePlan } from '#src/engine/reconcile.js';
import { type DesiredState } from '#src/model/state.js';
import { applyBoundMs } from './bounds.js';
import type { BenchSandbox } from './sandbox-env.js';

export interface ApplyMeasure {
  steps: number;
  /** Requests the plan carries. */
  plannedRequests: number;
  /** Requests the sandbox received during apply. */
  sentRequests: number;
  wallMs: number;
  boundMs: number;
  groups: { group: string; steps: number; requests: number; longestStep: number }[];
  failed: number;
  skipped: number;
  /** Steps of a plan made right after the apply (0: the apply converged). */
  replanSteps: number;
}

export async function measureApply(
  sb: BenchSandbox,
  kinds: readonly KindDefinition[],
  desired: DesiredState,
  opts: { concurrency: number; latencyMs: number },
): Promise<ApplyMeasure> {
  const client = createClient({ baseUrl: sb.url, token: sb.token, concurrency: opts.concurrency });
  try {
    const { plan } = await computePlan(client, kinds, desired, { invite: false });
    const grouped = groups(plan.steps);
    const perGroup = grouped.map((g) => g.map((s) => s.requests.length));
    await sb.resetStats();
    const started = performance.now();
    const report = await applyPlan(client, plan, { concurrency: opts.concurrency });
    const wallMs = performance.now() - started;
    const stats = await sb.stats();
    const replan = await computePlan(client, kinds, desired);
    return {
      steps: plan.steps.length,
      plannedRequests: perGroup.flat().reduce((a, b) => a + b, 0),
      sentRequests: stats.total,
      wallMs,
      boundMs: applyBoundMs(perGroup, opts.concurrency, opts.latencyMs),
      groups: grouped.map((g, i) => ({
        group: groupOf(g[0]!),
        steps: g.length,
        requests: perGroup[i]!.reduce((a, b) => a + b, 0),
        longestStep: Math.max(...perGroup[i]!),
      })),
      failed: report.failed.length,
      skipped: report.skipped.length,
      replanSteps: replan.plan.steps.length,
    };
  } finally {
    await client.close();
  }
}
