/**
 * The pipeline: manifests → desired state → fetch live (memoised, concurrent) → pure diff → ordered plan.
 * Dry-run is "stop after computePlan"; only src/core/apply.ts writes.
 */
import type { ApiClient } from '../api/types.js';
import type { DesiredEntry, KindDefinition, LiveKindState } from './kind.js';
import type { Plan } from './plan.js';

/** Desired state: manifest kind → its entries (all orgs). */
export type DesiredState = ReadonlyMap<string, DesiredEntry[]>;

/** Live state: `${kind}\u0000${org}` → what that kind fetched. Use liveKey(). */
export type LiveState = Map<string, LiveKindState>;

export const liveKey = (kind: string, org: string): string => `${kind}\u0000${org}`;

export interface PlanOptions {
  /** Prune per manifest kind from the config (documents can also say `prune: true`). */
  prune?: Record<string, boolean>;
  /** Invite missing members by e-mail. */
  invite?: boolean;
}

export interface PlanResult {
  plan: Plan;
  live: LiveState;
}

export declare function computePlan(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  desired: DesiredState,
  options?: PlanOptions,
): Promise<PlanResult>;
