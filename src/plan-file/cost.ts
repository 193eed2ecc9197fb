/**
 * The API cost of applying a plan: how many requests apply sends and roughly how long that takes. Apply runs
 * one wave group after another; inside a group up to `concurrency` steps run at once, each sending its own
 * requests one after the other (steps whose bulk writes go together count as one). A group therefore takes at least its longest step (critical path) and at
 * least its total requests spread over the concurrency; the estimate takes the larger of the two per group.
 *
 * When the API announced a rate limit (the budget the plan's own reads saw), apply is paced to it
 * (src/api/pacer.ts): requests go at once while more than half the limit is left, the rest at the rate the budget
 * comes back. That rate is taken as `limit` per minute (GitBook documents its limits per minute), or per the
 * time to the announced reset when that is longer; the estimate is then at least those requests at that rate.
 */
import { applyUnits } from '../engine/batch.js';
import { groups } from '../engine/order.js';
import type { Plan } from '../model/plan.js';

export const DEFAULT_LATENCY_MS = 100;

/** The rate limit the API announced on its last answer. */
export interface RateBudget {
  limit: number;
  remaining: number;
  /** Until the announced reset, when known. */
  resetInMs?: number | undefined;
}

export interface PlanCost {
  /** Requests apply will send (the sum of every step's requests). All of them are writes or lookups apply makes. */
  requests: number;
  /** Estimated wall time in milliseconds at `concurrency` and `latencyMs` per request (and the rate limit, when known). */
  estimatedMs: number;
  concurrency: number;
  latencyMs: number;
  /** The announced rate limit the estimate paced the requests to. */
  rateLimit?: RateBudget;
}

const MINUTE_MS = 60_000;

/** The least time `requests` take paced to `budget`: those beyond the burst (above half the limit) at the refill rate. */
export function pacedMs(requests: number, budget: RateBudget): number {
  const burst = Math.max(0, Math.floor(budget.remaining - budget.limit / 2));
  const paced = Math.max(0, requests - burst);
  const windowMs = Math.max(MINUTE_MS, budget.resetInMs ?? 0);
  return paced === 0 || budget.limit <= 0 ? 0 : Math.round((paced * windowMs) / budget.limit);
}

export function estimateCost(
  plan: Plan,
  options: { concurrency: number; latencyMs?: number; rateLimit?: RateBudget | undefined },
): PlanCost {
  const concurrency = Math.max(1, options.concurrency);
  const latencyMs = options.latencyMs ?? DEFAULT_LATENCY_MS;
  let requests = 0;
  let estimatedMs = 0;
  for (const group of groups(plan.steps)) {
    // Steps whose bulk writes apply sends together (BatchSpec) cost one request per unit.
    const perStep = applyUnits(group).map((u) => (Array.isArray(u) ? 1 : u.requests.length));
    const total = perStep.reduce((a, b) => a + b, 0);
    requests += total;
    const criticalPath = Math.max(0, ...perStep) * latencyMs;
    const throughput = (total / concurrency) * latencyMs;
    estimatedMs += Math.max(criticalPath, throughput);
  }
  const rate = options.rateLimit;
  const total = rate ? Math.max(estimatedMs, pacedMs(requests, rate)) : estimatedMs;
  return { requests, estimatedMs: Math.round(total), concurrency, latencyMs, ...(rate ? { rateLimit: rate } : {}) };
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
  const rate = cost.rateLimit
    ? `; paced to the API's rate limit of ${cost.rateLimit.limit}, ${cost.rateLimit.remaining} left`
    : '';
  return `API cost: ${cost.requests} request${cost.requests === 1 ? '' : 's'}, ~${formatDuration(cost.estimatedMs)} at concurrency ${cost.concurrency} (${cost.latencyMs}ms/request${rate})`;
}
