/**
 * The plan is plain data: an ordered list of steps, each carrying the HTTP requests apply will send.
 * Rendering (text/markdown/json) and applying only read it, so a saved plan can be applied exactly.
 *
 * Ids that only exist after an earlier step ran are refs (src/model/refs.ts): a request shows them as
 * `<<ref:STEP_ID.OUTPUT>>` placeholders, and `RequestSpec.refs` records where each one sits. Apply substitutes
 * exactly there, so text a user wrote is never taken for a ref, however it reads.
 */
import type { HttpMethod } from '@docops/api-shared';
import type { Action, Phase, Step } from './generated/plan.js';

import type { OwnershipMode, PlanDocument } from './generated/plan.js';

/**
 * The plan's JSON form, described once by schemas/plan.schema.json: its types are generated from it
 * (src/model/generated/plan.ts), its reader is the schema's validator, and the printer lists each object's members
 * in the schema's order (docs/dev/formats.md).
 */
export type {
  Action,
  AttributedChange,
  BlockedObject,
  CascadeObject,
  DriftAttribution,
  OwnedObject,
  OwnershipMode,
  Phase,
  PlanWarning,
  ReportedChange,
  Source,
  Step,
  UnmanagedObject,
} from './generated/plan.js';

/**
 * A plan: the printed document without what is derived from it when printed (`scopes`, `policy`), which its reader
 * drops.
 */
export type Plan = Omit<PlanDocument, 'scopes' | 'policy'>;

/** The ownership modes (the schema's OwnershipMode), most cautious last; src/engine/modes.ts applies them. */
export const OWNERSHIP_MODES = ['authoritative', 'additive', 'observe'] as const satisfies readonly OwnershipMode[];

/** The phases in the order they run (the schema's Phase). */
export const PHASES = ['create', 'update', 'delete', 'prune'] as const satisfies readonly Phase[];

/** The vocabulary of a step's requests (request.ts), also taken from here as part of the plan's. */
export * from './request.js';

/** What the daemon does with drift of a kind: revert it (default), report it, or propose it as a manifest change. */
export type DriftPolicy = 'revert' | 'report' | 'propose';

/** What each mode never does, for the lines that say why a change is only reported. */
export const MODE_REASON: Record<Exclude<OwnershipMode, 'authoritative'>, string> = {
  additive: 'additive: never deletes what no manifest writes',
  observe: 'observe: report only, never writes',
};

/** Why the daemon keeps a drifted object as it is (src/daemon/drift). */
export const DRIFT_REASON: Record<Exclude<DriftPolicy, 'revert'>, string> = {
  report: 'drift report: kept, not reverted',
  propose: 'drift propose: proposed as a manifest change, not reverted',
};

/** What a step is, for people: a manifest edit, drift reverted, or unknown (Plan.manifestChanges absent). */
export type StepOrigin = 'manifests' | 'drift' | 'unknown';

const edits = new WeakMap<Plan, Set<string>>();

export function originOf(plan: Plan, step: Step): StepOrigin {
  if (plan.manifestChanges === undefined) return 'unknown';
  let ids = edits.get(plan);
  if (!ids) edits.set(plan, (ids = new Set(plan.manifestChanges)));
  return ids.has(step.id) ? 'manifests' : 'drift';
}

export function emptyPlan(): Plan {
  return { formatVersion: 1, steps: [], unmanaged: [], warnings: [], blocked: [] };
}

/** Decoded path segments of a step's requests (optionally only some methods): the ids a step addresses. */
export function pathSegments(step: Step, methods?: readonly HttpMethod[]): Set<string> {
  const out = new Set<string>();
  for (const r of step.requests) {
    if (methods && !methods.includes(r.method)) continue;
    for (const s of r.path.split('/')) out.add(decodeSegment(s));
  }
  return out;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // not percent-encoded text: the segment as written is the id
  }
}

export function stepCounts(plan: Plan): Record<string, Record<Action, number>> {
  const out: Record<string, Record<Action, number>> = {};
  for (const s of plan.steps) {
    const c = (out[s.kind] ??= { create: 0, update: 0, delete: 0 });
    c[s.action]++;
  }
  return out;
}
