/**
 * The API cost of applying a plan: how many requests apply sends and roughly how long that takes. Apply runs
 * one wave group after another; inside a group up to `concurrency` steps run at once, each sending its own
 * requests one after the other. A group therefore takes at least its longest step (critical path) and at
 * least its total requests spread over the concurrency; the estimate takes the larger of the two per group.
 */
import { groups } from '../core/order.js';
import type { Plan } from '../core/plan.js';

export const DEFAULT_LATENCY_MS = 100;

export interface PlanCost {
  /** Requests apply will send (the sum of every step's requests). All of them are writes or lookups apply makes. */
  requests: number;
  /** Estimated wall time in milliseconds at `concurrency` and `latencyMs` per request. */
  estimatedMs: number;
  concurrency: number;
  latencyMs: number;
}

export function estimateCost(plan: Plan, options: { concurrency: number; latencyMs?: number }): PlanCost {
  const concurrency = Math.max(1, options.concurrency);
  const latencyMs = options.latencyMs ?? DEFAULT_LATENCY_MS;
  let requests = 0;
  let estimatedMs = 0;
  for (const group of groups(plan.steps)) {
    const perStep = group.map((s) => s.requests.length);
    const total = perStep.reduce((a, b) => a + b, 0);
    requests += total;
    const criticalPath = Math.max(0, ...perStep) * latencyMs;
    const throughput = (total / concurrency) * latencyMs;
    estimatedMs += Math.max(criticalPath, throughput);
  }
  return { requests, estimatedMs: Math.round(estimatedMs), concurrency, latencyMs };
}

/** `0.4s`, `12.3s`, `2m 05s`. */
export function formatDuration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
}

/** The line plan output shows: `API cost: 12 requests, ~1.2s at concurrency 8`. */
export function costLine(cost: PlanCost): string {
  return `API cost: ${cost.requests} request${cost.requests === 1 ? '' : 's'}, ~${formatDuration(cost.estimatedMs)} at concurrency ${cost.concurrency} (${cost.latencyMs}ms/request)`;
}
