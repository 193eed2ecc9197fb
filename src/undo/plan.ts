/**
 * Undo's plan: restores first (each a step of its own, so a failed restore skips exactly the steps that name
 * the object), then the normal plan of undo's documents — computed against the API as it will be once the
 * restores ran (overlayClient), with prune off (undo never deletes) and inviting removed members again.
 * The result is plain plan data: rendered, gated and applied like any other plan.
 */
import type { ApiClient } from '../model/api-client.js';
import type { KindDefinition } from '../model/kind.js';
import { orderSteps } from '../engine/order.js';
import { pathSegments, type Plan, type Step } from '../model/plan.js';
import { computePlan } from '../engine/reconcile.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { stepId } from '../kinds/common.js';
import { desiredFromFiles, type UndoFile } from './documents.js';
import { overlayClient } from './overlay.js';
import type { RestoreItem } from './restore.js';

export interface UndoPlan {
  plan: Plan;
  live: LiveState;
  desired: DesiredState;
}

/** Restores run in the first group of the create phase, before anything that could name the object. */
export const RESTORE_WAVE = 0;

/** `key` is the object's key, or `key (id)` when two restored objects of a kind and org share it. */
export function restoreStep(r: RestoreItem, key = r.object.key): Step {
  const { object } = r;
  return {
    id: stepId(object.kind, object.org, key, 'restore'),
    action: 'create',
    phase: 'create',
    kind: object.kind,
    org: object.org,
    key,
    wave: RESTORE_WAVE,
    before: null,
    after: { id: object.id },
    dependsOn: [],
    requests: r.restore.requests,
    note: r.restore.note,
  };
}

/** Whether a step's requests name `id` (a path segment, or any string value of a body). */
function mentions(step: Step, id: string): boolean {
  if (pathSegments(step).has(id)) return true;
  const visit = (v: unknown): boolean =>
    v === id ||
    (Array.isArray(v) ? v.some(visit) : v !== null && typeof v === 'object' ? Object.values(v).some(visit) : false);
  return step.requests.some((r) => visit(r.body));
}

export async function planUndo(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  files: readonly UndoFile[],
  restores: readonly RestoreItem[],
): Promise<UndoPlan> {
  const desired = desiredFromFiles(files, kinds);
  const { plan, live } = await computePlan(
    overlayClient(
      client,
      restores.map((r) => r.restore),
    ),
    kinds,
    desired,
    { invite: true },
  );
  const at = (r: RestoreItem): string => `${r.object.kind}\u0000${r.object.org}\u0000${r.object.key}`;
  const count = new Map<string, number>();
  for (const r of restores) count.set(at(r), (count.get(at(r)) ?? 0) + 1);
  const restoreSteps = restores.map((r) =>
    restoreStep(r, count.get(at(r))! > 1 ? `${r.object.key} (${r.object.id})` : r.object.key),
  );
  const steps = plan.steps.map((s) => {
    const needs = restoreSteps.filter((r, i) => mentions(s, restores[i]!.object.id)).map((r) => r.id);
    return needs.length === 0 ? s : { ...s, dependsOn: [...new Set([...s.dependsOn, ...needs])].sort() };
  });
  // Undo's documents are a fragment of the organization: the live objects they do not mention are not "unmanaged".
  return { plan: { ...plan, steps: orderSteps([...restoreSteps, ...steps]), unmanaged: [] }, live, desired };
}
