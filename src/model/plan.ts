/**
 * The plan is plain data: an ordered list of steps, each carrying the HTTP requests apply will send.
 * Rendering (text/markdown/json) and applying only read it, so a saved plan can be applied exactly.
 *
 * Ids that only exist after an earlier step ran are refs (src/model/refs.ts): a request shows them as
 * `<<ref:STEP_ID.OUTPUT>>` placeholders, and `RequestSpec.refs` records where each one sits. Apply substitutes
 * exactly there, so text a user wrote is never taken for a ref, however it reads.
 */
import type { HttpMethod } from '@docops/api-shared';

export type Action = 'create' | 'update' | 'delete';

/**
 * How much of a kind's live state docops may write (src/engine/modes.ts; docs/kinds.md, "Who owns what"):
 * `authoritative` — the manifests win; `additive` — create and update what is written, never delete or revert
 * what is not; `observe` — never write, report the drift. Most cautious first is observe.
 */
export const OWNERSHIP_MODES = ['authoritative', 'additive', 'observe'] as const;
export type OwnershipMode = (typeof OWNERSHIP_MODES)[number];

/**
 * Phases run in this order. `prune` = deleting live objects no manifest mentions (only when prune is on);
 * `delete` = deletes a manifest asks for implicitly (e.g. a membership dropped from a managed team).
 */
export const PHASES = ['create', 'update', 'delete', 'prune'] as const;
export type Phase = (typeof PHASES)[number];

/** The vocabulary of a step's requests (request.ts), also taken from here as part of the plan's. */
export * from './request.js';
import type { RequestSpec } from './request.js';

export interface Step {
  /** Unique within the plan and stable for the same inputs, e.g. `Team/org1/platform#create`. */
  id: string;
  action: Action;
  phase: Phase;
  kind: string;
  org: string;
  /** The object's identity as the manifest names it (e-mail, title, path …). */
  key: string;
  /** Depth in the parent → child hierarchy (see KindDefinition.depth, plus nesting inside a kind). */
  wave: number;
  /** Only the managed (compared) fields; null for create (before) and delete (after). Never secrets. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /**
   * What a null value of a top-level field of `before`/`after` means in the API, where it is a value rather than
   * nothing (a member's `role: null` is a guest): field → meaning. Only fields the step holds null; set from the
   * kind's definition (KindDefinition.nullMeanings). Renderers show such a null as `null (guest)`, not "(unset)".
   */
  nulls?: Record<string, string>;
  /** Step ids that must succeed before this one runs. */
  dependsOn: string[];
  requests: RequestSpec[];
  /** Where the manifest entry behind this step is written, when there is one. */
  source?: { file: string; line: number; column: number };
  /** Human note shown in renderings, e.g. "invite by e-mail". */
  note?: string;
  /**
   * Live objects this step deletes along with its own object (see CascadeObject), as fetched for this plan;
   * absent when it takes none. The renderers list them under the step and the safety gate counts each one as a
   * delete of its own kind. A kind never lets a step take an object a manifest describes.
   */
  cascades?: CascadeObject[];
  /** The ownership mode that produced the step, when it is not `authoritative` (then only `additive`: observe never writes). */
  mode?: OwnershipMode;
}

/**
 * A change the diff found that docops does not make: its ownership mode forbids it (`mode`: an update or create in
 * `observe`, a delete in `additive`), or it would revert drift the daemon's drift setting keeps (`drift`: report,
 * or propose as a pull request; src/daemon/drift). Shown as report-only, never sent. It has no requests.
 */
export interface ReportedChange extends Omit<Step, 'requests' | 'dependsOn' | 'mode'> {
  mode?: Exclude<OwnershipMode, 'authoritative'>;
  drift?: DriftPolicy;
}

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

/**
 * Live objects another writer owns, which docops leaves alone whatever the manifests say: a site's structure
 * under Git Sync. `what` names the parts (e.g. "sections, section groups and site spaces"), `owner` the writer.
 */
export interface OwnedObject {
  kind: string;
  org: string;
  key: string;
  id?: string;
  what: string;
  owner: string;
}

/**
 * One live object the server deletes because a step deletes another (a collection takes the spaces inside it,
 * a site its sections, site spaces, groups and share links, a section its site spaces, a team its memberships,
 * a member their team memberships). Plain data, known from the fetched live state; an object the plan deletes
 * with a step of its own is not repeated here (the step that runs first deletes it).
 */
export interface CascadeObject {
  kind: string;
  org: string;
  /** Its key as the kind's own steps and unmanaged entries name it. */
  key: string;
  id?: string;
  /** How it goes when that is not a plain delete, e.g. "soft delete: restorable for 7 days". */
  note?: string;
}

export interface UnmanagedObject {
  kind: string;
  org: string;
  key: string;
  id?: string;
  /** Set when an ownership mode leaves it in place (additive: a written list is not the whole list), not the absence of prune. */
  mode?: OwnershipMode;
}

export interface PlanWarning {
  kind: string;
  org: string;
  key: string;
  message: string;
}

/**
 * A manifest object the plan cannot reach (e.g. a reference that names nothing): none of its steps are in the
 * plan, the rest of the plan goes on, and the run fails (exit 1) after saying so. Never "No changes".
 */
export interface BlockedObject {
  kind: string;
  org: string;
  key: string;
  /** Why, naming what could not be resolved. */
  message: string;
  /** Where the manifest writes the offending value. */
  source?: { file: string; line: number; column: number };
}

export interface Plan {
  formatVersion: 1;
  steps: Step[];
  unmanaged: UnmanagedObject[];
  warnings: PlanWarning[];
  /** Manifest objects left out of the plan because it cannot reach them; any entry fails the run. */
  blocked: BlockedObject[];
  /** Drift the ownership modes leave alone: listed, never applied (absent: none). Never "No changes" beside it. */
  reported?: ReportedChange[];
  /** Live objects (or parts of them) another writer owns, left alone (absent: none). */
  owned?: OwnedObject[];
  /**
   * Who made the live changes the steps revert, from the organization's audit events (src/audit): added after the
   * diff by a separate step, never by a kind's diff. Absent when the plan had no steps or nobody looked.
   */
  attribution?: DriftAttribution;
  /**
   * Steps a manifest edit asked for since the daemon's last successful run: not drift (src/daemon/origin.ts). Added
   * after the diff, like attribution; absent when nobody could tell (docops plan/apply, the daemon's first run or
   * the run after a failed one). When present, every other step reverts drift.
   */
  manifestChanges?: string[];
}

/** The audit events found for a plan's steps, and why none could be read when that is so. */
export interface DriftAttribution {
  /** The most recent audit event on each step's object (steps without one are not listed). */
  changes: AttributedChange[];
  /** One line: why the events could not be read (403, 404, …); the plan goes on without them. */
  unavailable?: string;
}

export interface AttributedChange {
  /** The step id. */
  step: string;
  /** Who: the actor's label (an e-mail for users), else its id. */
  actor: string;
  /** When (ISO 8601). */
  at: string;
  /** The audit action, e.g. `member.updated`. */
  action: string;
}

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
