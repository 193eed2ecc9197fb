/**
 * A plan as rules see it: `change` (one step) and `plan` (every change, and counts per kind). Plain values built
 * once per plan from the plan's own data (before/after never hold secrets); integers CEL types as `int` are
 * BigInt, as the library wants them.
 */
import { originOf, type Plan, type Step } from '../model/plan.js';

export interface ChangeView {
  id: string;
  action: string;
  phase: string;
  kind: string;
  org: string;
  key: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  fields: string[];
  file: string;
  line: bigint;
  note: string;
  cascades: { kind: string; org: string; key: string }[];
  origin: string;
  actor: string;
}

export interface PlanView {
  changes: ChangeView[];
  counts: Record<string, Record<'create' | 'update' | 'delete' | 'prune', bigint>>;
}

/** `kinds`: every kind name, so `plan.counts["Team"]` exists even when the plan has no Team change. */
export function planView(plan: Plan, kinds: readonly string[]): PlanView {
  const actors = new Map((plan.attribution?.changes ?? []).map((c) => [c.step, c.actor]));
  const changes = plan.steps.map((s) => changeView(plan, s, actors.get(s.id)));
  const counts: PlanView['counts'] = {};
  const zero = (): PlanView['counts'][string] => ({ create: 0n, update: 0n, delete: 0n, prune: 0n });
  for (const k of kinds) counts[k] = zero();
  for (const s of plan.steps) {
    const c = (counts[s.kind] ??= zero());
    c[s.action]++;
    if (s.phase === 'prune') c.prune++;
  }
  return { changes, counts };
}

function changeView(plan: Plan, s: Step, actor: string | undefined): ChangeView {
  const before = plainCopy(s.before ?? {});
  const after = plainCopy(s.after ?? {});
  return {
    id: s.id,
    action: s.action,
    phase: s.phase,
    kind: s.kind,
    org: s.org,
    key: s.key,
    before,
    after,
    fields: changedFields(before, after),
    file: s.source?.file ?? '',
    line: BigInt(s.source?.line ?? 0),
    note: s.note ?? '',
    cascades: (s.cascades ?? []).map((c) => ({ kind: c.kind, org: c.org, key: c.key })),
    origin: originOf(plan, s),
    actor: actor ?? '',
  };
}

/** Top-level fields whose values differ between before and after (all of them for a create or a delete). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => JSON.stringify(before[n]) !== JSON.stringify(after[n])).sort();
}

/** A JSON copy: no shared objects with the plan, nothing but JSON values (CEL reads maps, lists and scalars). */
function plainCopy(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
}
