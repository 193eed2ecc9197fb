/**
 * What a run the informer's poll started plans: the organizations whose audit events (or a finished resync)
 * had something for it, and whatever the manifests changed since the last successful run (a file change whose
 * own run has not started yet must not be taken as reconciled). Full when the scope tracker cannot tell.
 */
import type { DesiredState } from '../../model/state.js';
import { managedScopes } from '../../engine/scope.js';
import type { RunScope } from '../changes.js';
import type { TriggerReason } from '../triggers.js';

const orgOf = (key: string): string => key.slice(key.indexOf('\u0000') + 1);

export function pollDecision(
  scoping: { peek?(reasons: readonly TriggerReason[], desired: DesiredState): RunScope } | undefined,
  desired: DesiredState,
  orgs: ReadonlySet<string>,
): RunScope {
  const manifests = scoping?.peek?.(['watch'], desired);
  if (!manifests) return { type: 'full', why: 'the informer found changes (scoped reconciles are off)' };
  if (manifests.type === 'full') return manifests;
  const scopes = new Set(manifests.scopes);
  for (const key of managedScopes(desired)) if (orgs.has(orgOf(key))) scopes.add(key);
  return { type: 'scoped', changed: manifests.changed, scopes: [...scopes].sort() };
}
