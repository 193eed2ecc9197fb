/**
 * Bulk writes (BatchSpec in plan.ts): which steps of one ordered group apply sends as one request, the request it
 * sends, and each step's share of the answer. Pure; apply does the sending. The cost estimate counts the same units.
 */
import type { BatchSpec, RequestSpec, Step } from '../model/plan.js';
import { pick } from './recover.js';

/** The one request of a step apply may send together with others', or undefined. */
export function batchRequest(step: Step): (RequestSpec & { batch: BatchSpec }) | undefined {
  const [only, ...more] = step.requests;
  if (!only?.batch || more.length > 0) return undefined;
  if (only.capture !== undefined || only.recover !== undefined || only.merge !== undefined || only.settle !== undefined)
    return undefined;
  return only as RequestSpec & { batch: BatchSpec };
}

/** How many elements a step's batched request holds (its body's `list` array). */
export function elementCount(req: RequestSpec & { batch: BatchSpec }): number {
  const list = (req.body as Record<string, unknown> | undefined)?.[req.batch.list];
  return Array.isArray(list) ? list.length : 0;
}

/**
 * A group's steps as the units apply runs: a step alone, or the steps whose batched requests go together (same
 * method, path and BatchSpec; at most `max` elements per unit), in plan order.
 */
export function applyUnits(group: readonly Step[]): (Step | Step[])[] {
  const units: (Step | Step[])[] = [];
  const open = new Map<string, { steps: Step[]; elements: number }>();
  for (const step of group) {
    const req = batchRequest(step);
    if (!req) {
      units.push(step);
      continue;
    }
    const key = `${req.method} ${req.path} ${JSON.stringify(req.batch)}`;
    const n = elementCount(req);
    let unit = open.get(key);
    if (!unit || unit.elements + n > req.batch.max) {
      unit = { steps: [], elements: 0 };
      open.set(key, unit);
      units.push(unit.steps);
    }
    unit.steps.push(step);
    unit.elements += n;
  }
  // A unit of one step is still a batch: its answer holds a result per element, read the same way.
  return units;
}

/** The body of one bulk request: the first body with every step's elements, in order. */
export function batchBody(batch: BatchSpec, bodies: readonly unknown[]): unknown {
  const first = (bodies[0] ?? {}) as Record<string, unknown>;
  const elements = bodies.flatMap((b) => {
    const list = (b as Record<string, unknown> | undefined)?.[batch.list];
    return Array.isArray(list) ? list : [];
  });
  return { ...first, [batch.list]: elements };
}

/**
 * Each step's outcome from the answer: undefined when all its results succeeded, else why it failed. Throws when
 * the answer does not hold one result per element sent (then no step's outcome is known).
 */
export function batchOutcomes(
  batch: BatchSpec,
  counts: readonly number[],
  answer: unknown,
  sent: string,
): (string | undefined)[] {
  const results = pick(answer, batch.results);
  const total = counts.reduce((a, b) => a + b, 0);
  if (!Array.isArray(results) || results.length !== total) {
    throw new Error(
      `the answer of ${sent} holds ${Array.isArray(results) ? results.length : 'no'} results for ${total} elements sent: what it did is not known (the next plan will tell)`,
    );
  }
  let at = 0;
  return counts.map((n) => {
    const mine = results.slice(at, (at += n));
    const failed = mine.filter((r) => String(pick(r, batch.failed.field)) === batch.failed.value);
    if (failed.length === 0) return undefined;
    return failed
      .map((r) => String(pick(r, batch.failed.message) ?? `${batch.failed.field} ${batch.failed.value}`))
      .join('; ');
  });
}

/** Why a 2xx answer says the request was not done (RequestSpec.refusedWhen), or undefined. */
export function refusal(req: RequestSpec, answer: unknown): string | undefined {
  return req.refusedWhen?.find((r) => String(pick(answer, r.field)) === r.value)?.message;
}
