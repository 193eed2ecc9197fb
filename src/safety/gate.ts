/**
 * The safety gate: a separate step between plan and apply (reconcileOnce's `gate`). It is pure over the
 * plan and the live state the plan came from; a refusal is a SafetyError (exit 3) listing every violation,
 * each saying which limit, how many, and how to override it where that is allowed.
 */
import { SafetyError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan } from '../model/plan.js';
import { liveKey, type DesiredState, type LiveState } from '../model/state.js';
import type { SafetyConfig } from './config.js';
import { liveIndex, planChanges } from './counts.js';
import { modeViolations } from './modes.js';
import {
  emptyListViolations,
  pruneAllViolations,
  thresholdViolations,
  type ParentDocument,
  type SafetyViolation,
} from './rules.js';

export type { SafetyViolation } from './rules.js';

export interface Whoami {
  id: string;
  email?: string;
}

export interface GateOptions {
  config: SafetyConfig;
  /** `--force`: lifts the thresholds, never the guards or the prune-everything rules. */
  force: boolean;
  /** The token's own user (GET /user), for the kinds' guards. */
  whoami?: Whoami;
  /** What was loaded from the manifests: documents, or desired entries when the state holds no documents (see countDesired). */
  desiredCount: number;
  /**
   * The desired state the plan was made from: the documents describing the objects whose lists a plan empties
   * (their `allowEmpty: true` lifts the emptied-list rule, and the refusal names where they are). Without it no
   * document allows emptying a list.
   */
  desired?: DesiredState;
}

export interface GateResult {
  /** Violations that refuse the plan. */
  blocking: SafetyViolation[];
  /** Violations `--force` lifted (worth logging). */
  overridden: SafetyViolation[];
}

/** Every violation, split by whether it still refuses the plan under the given `force`. */
export function evaluatePlan(
  plan: Plan,
  live: LiveState,
  kinds: readonly KindDefinition[],
  opts: GateOptions,
): GateResult {
  const index = liveIndex(live);
  const changes = planChanges(plan, index);
  const all = [
    ...modeViolations(plan),
    ...guardViolations(plan, live, kinds, opts.whoami),
    ...pruneAllViolations(changes, index, opts.config, opts.desiredCount),
    ...emptyListViolations(changes, index, opts.config, parentDocuments(opts.desired)),
    ...thresholdViolations(changes, index, opts.config),
  ];
  return {
    blocking: all.filter((v) => !(opts.force && v.overridable)),
    overridden: all.filter((v) => opts.force && v.overridable),
  };
}

/** Pure: the violations that refuse this plan (empty = the plan may be applied). */
export function checkPlan(
  plan: Plan,
  live: LiveState,
  kinds: readonly KindDefinition[],
  opts: GateOptions,
): SafetyViolation[] {
  return evaluatePlan(plan, live, kinds, opts).blocking;
}

/** Throws SafetyError when any violation remains; returns the ones `--force` lifted. */
export function enforce(
  plan: Plan,
  live: LiveState,
  kinds: readonly KindDefinition[],
  opts: GateOptions,
): SafetyViolation[] {
  const { blocking, overridden } = evaluatePlan(plan, live, kinds, opts);
  if (blocking.length > 0) throw new SafetyError(blocking);
  return overridden;
}

/**
 * The gate as reconcileOnce wants it. `whoami` may be a loader (called once per gate run, only when a plan
 * reaches the gate); a failing loader refuses to apply rather than apply unguarded.
 */
export function safetyGate(
  kinds: readonly KindDefinition[],
  opts: Omit<GateOptions, 'whoami'> & {
    whoami?: Whoami | (() => Promise<Whoami>);
    onOverridden?: (violations: SafetyViolation[]) => void;
  },
): (plan: Plan, live: LiveState) => Promise<void> {
  return async (plan, live) => {
    const whoami = typeof opts.whoami === 'function' ? await opts.whoami() : opts.whoami;
    const overridden = enforce(plan, live, kinds, {
      config: opts.config,
      force: opts.force,
      desiredCount: opts.desiredCount,
      ...(opts.desired ? { desired: opts.desired } : {}),
      ...(whoami ? { whoami } : {}),
    });
    if (overridden.length > 0) opts.onOverridden?.(overridden);
  };
}

/**
 * The `desiredCount` the empty-manifests rule looks at: the documents loaded when the desired state carries them
 * (the loader's does) — a document that writes an empty list (`members: []`) yields no entry, yet it was loaded and
 * says what it means, unlike a vanished directory — else the desired entries over all kinds and orgs.
 */
export function countDesired(desired: DesiredState): number {
  if (desired.documents) return desired.documents.length;
  let n = 0;
  for (const entries of desired.values()) n += entries.length;
  return n;
}

/**
 * The document describing a parent object: the entry of its kind and org with its pinned id, else with its key (the
 * key the parent's live object has, which is the entry's while the title is unchanged).
 */
function parentDocuments(desired: DesiredState | undefined): ParentDocument {
  return (org, parent) => {
    const entries = (desired?.get(parent.kind) ?? []).filter((e) => e.org === org);
    const entry =
      entries.find((e) => e.id !== undefined && e.id === parent.id) ?? entries.find((e) => e.key === parent.key);
    return entry ? { allowEmpty: entry.doc.allowEmpty === true, at: entry.doc.pos([]) } : undefined;
  };
}

/** Each kind's guard, once per org the kind has live state for; every message is a non-overridable violation. */
function guardViolations(
  plan: Plan,
  live: LiveState,
  kinds: readonly KindDefinition[],
  whoami: Whoami | undefined,
): SafetyViolation[] {
  const out: SafetyViolation[] = [];
  for (const kind of kinds) {
    if (!kind.guard) continue;
    const prefix = liveKey(kind.kind, '');
    const orgs = [...live.keys()]
      .filter((k) => k.startsWith(prefix))
      .map((k) => k.slice(prefix.length))
      .sort();
    for (const org of orgs) {
      for (const message of kind.guard(plan, live.get(liveKey(kind.kind, org))!, org, whoami)) {
        out.push({
          rule: 'guard',
          kind: kind.kind,
          org,
          overridable: false,
          message: `${kind.kind} in ${org}: ${message}`,
        });
      }
    }
  }
  return out;
}
