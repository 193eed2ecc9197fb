/** The no-op plan against the filled sandbox: requests (counted by the sandbox) and wall time per run. */
import { createClient } from '#src/api/client.js';
import type { KindDefinition } from '#src/model/kind.js';
import { computePlan } from '#src/engine/reconcile.js';
import { type DesiredState } from '#src/model/state.js';
import type { BenchSandbox } from './sandbox-env.js';

export interface PlanRun {
  wallMs: number;
  requests: number;
  steps: number;
  warnings: number;
}

export interface PlanMeasure {
  runs: PlanRun[];
  /** Run with the median wall time. */
  median: PlanRun;
  /** Requests by route of the last run, from the sandbox. */
  byRoute: Record<string, number>;
  /** Ids of the first steps of the last plan (empty for a no-op), to show what was not a no-op. */
  planSteps: string[];
}

export async function measureNoopPlan(
  sb: BenchSandbox,
  kinds: readonly KindDefinition[],
  desired: DesiredState,
  opts: { concurrency: number; runs: number },
): Promise<PlanMeasure> {
  const client = createClient({ baseUrl: sb.url, token: sb.token, concurrency: opts.concurrency });
  try {
    // One unmeasured run warms the JIT and the connections, as a long-running daemon would be.
    await computePlan(client, kinds, desired);
    const runs: PlanRun[] = [];
    let byRoute: Record<string, number> = {};
    let planSteps: string[] = [];
    for (let i = 0; i < opts.runs; i++) {
      await sb.resetStats();
      const started = performance.now();
      const { plan } = await computePlan(client, kinds, desired);
      const wallMs = performance.now() - started;
      const stats = await sb.stats();
      byRoute = stats.byRoute;
      planSteps = plan.steps.slice(0, 10).map((s) => s.id);
      runs.push({ wallMs, requests: stats.total, steps: plan.steps.length, warnings: plan.warnings.length });
    }
    const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
    return { runs, median: sorted[Math.floor(sorted.length / 2)]!, byRoute, planSteps };
  } finally {
    await client.close();
  }
}
