/**
 * Which of a daemon run's steps a manifest edit asked for, and which revert drift. The last successful run left
 * the organization equal to its manifests (the baseline). Diffing those manifests against this run's live state
 * gives the steps drift alone would need: a step of this run's plan that is among them, with the same action and
 * values, reverts drift; any other step (new, or with other values) comes from the manifests. Pure: the same diff
 * the plan ran, over the baseline's desired state; no request.
 */
import type { KindDefinition } from '../model/kind.js';
import type { Plan, Step } from '../model/plan.js';
import { diffAll, type PlanOptions } from '../engine/reconcile.js';
import type { DesiredState, LiveState } from '../model/state.js';
import type { Logger } from '../log.js';
import { annotateStage, got, type Stage } from '../pipeline/index.js';
import type { DaemonRun } from './run.js';

const print = (s: Step): string => JSON.stringify([s.action, s.after]);

/** The ids of `plan`'s steps the manifests changed since `baseline` was reached. Throws when the baseline cannot be diffed. */
export function manifestChanges(
  kinds: readonly KindDefinition[],
  baseline: DesiredState,
  plan: Plan,
  live: LiveState,
  options: PlanOptions,
): string[] {
  const driftOnly = new Map(diffAll(kinds, baseline, live, options).steps.map((s) => [s.id, print(s)]));
  return plan.steps.filter((s) => driftOnly.get(s.id) !== print(s)).map((s) => s.id);
}

/** The plan with the steps a manifest edit asked for named (Plan.manifestChanges), when the last successful run tells. */
export function markManifestChanges(
  kinds: readonly KindDefinition[],
  reached: DesiredState | undefined,
  plan: Plan,
  live: LiveState,
  options: PlanOptions,
  log: Logger,
): Plan {
  if (!reached) return plan;
  try {
    return { ...plan, manifestChanges: manifestChanges(kinds, reached, plan, live, options) };
  } catch (err) {
    // The earlier manifests may name what this run's read did not fetch: then nobody can tell, and the plan says nothing.
    log.debug(
      { err },
      'cannot tell manifest edits from drift: the last successful manifests do not diff against this live state',
    );
    return plan;
  }
}

/** annotate: the steps a manifest edit asked for, named, when the last successful run tells (Plan.manifestChanges). */
export function manifestChangesStage(scoping: { reached(): DesiredState | undefined }): Stage<DaemonRun> {
  return annotateStage<DaemonRun>('manifest-changes', (plan, run) =>
    markManifestChanges(run.kinds, scoping.reached(), plan, got(run, 'live'), got(run, 'options'), run.log),
  );
}
