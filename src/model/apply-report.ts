/**
 * What an apply did: the record apply returns (src/engine/apply.ts), which the renderers, the daemon's status
 * page, its notifications and its run history read. Plain data, like the plan it reports on.
 */
import type { Action } from './plan.js';

export interface ApplyReport {
  applied: string[];
  failed: { stepId: string; message: string }[];
  /** Steps not attempted; why, in skipReasons. */
  skipped: string[];
  skipReasons: Record<string, string>;
  /** Set when the API became unreachable: the failure that showed it. Steps not started by then were skipped. */
  unreachable?: string;
  /** Set when the write gate closed: why. Nothing was sent after it; steps not finished were skipped or failed. */
  stopped?: string;
  /** Objects created by steps whose own later requests, or whose dependent steps, did not complete. */
  incomplete: IncompleteCreate[];
  /** Captured outputs (e.g. ids of created objects) by step id. */
  outputs: Record<string, Record<string, string>>;
}

/** A create step's object left behind incomplete. */
export interface IncompleteCreate {
  stepId: string;
  kind: string;
  key: string;
  /** The created object's id. */
  id: string;
  /** The request of the step itself that failed after the object was created (`PATCH /orgs/o/sites/s1`), and why. */
  failedRequest?: { request: string; message: string };
  /** Body fields the failed and the unsent requests of the step would have set. */
  notSet: string[];
  /** Steps that depend on this one (directly or through others) and failed or were not attempted. */
  dependents: { stepId: string; kind: string; action: Action; outcome: 'failed' | 'not attempted' }[];
  /** All of it in one sentence (describeIncomplete). */
  summary: string;
}
