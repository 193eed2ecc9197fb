/**
 * One reconcile, shared by `docops plan`, `docops apply` and the daemon:
 * load + validate manifests → fetch → diff → plan → [gate → apply].
 * `mode: 'plan'` stops after the plan (dry-run never reaches the write gateway).
 */
import type { ApiClient } from '../model/api-client.js';
import { applyPlan, type ApplyOptions } from './apply.js';
import type { ApplyReport } from '../model/apply-report.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan } from '../model/plan.js';
import { computePlan, diffAll, type PlanOptions } from './reconcile.js';
import type { DesiredState, LiveState } from '../model/state.js';

export interface ReconcileInput {
  client: ApiClient;
  kinds: readonly KindDefinition[];
  desired: DesiredState;
  mode: 'plan' | 'apply';
  planOptions?: PlanOptions;
  /** The safety gate; throws SafetyError to refuse. Runs only in apply mode, between plan and apply. */
  gate?: (plan: Plan, live: LiveState) => Promise<void>;
  /** Apply options, or a function of the plan and live state (the delete journal needs the live objects). */
  apply?: ApplyOptions | ((plan: Plan, live: LiveState) => ApplyOptions);
  /**
   * The live state of exactly these desired state and plan options, read already (the daemon reads it while a
   * save's debounce waits); undefined, or a read that failed, and it is fetched here.
   */
  live?: Promise<LiveState>;
  /** Annotates the computed plan with plain data (who made the drift: src/audit) before the gate; must not throw. */
  annotate?: (plan: Plan, live: LiveState) => Promise<Plan>;
}

export interface ReconcileOutcome {
  plan: Plan;
  live: LiveState;
  /** Present in apply mode when the plan had steps. */
  report?: ApplyReport;
}

export async function reconcileOnce(input: ReconcileInput): Promise<ReconcileOutcome> {
  const read = input.live ? await input.live.catch(() => undefined) : undefined;
  const computed = read
    ? { plan: diffAll(input.kinds, input.desired, read, input.planOptions), live: read }
    : await computePlan(input.client, input.kinds, input.desired, input.planOptions);
  const live = computed.live;
  const plan =
    input.annotate && computed.plan.steps.length > 0
      ? await input.annotate(computed.plan, computed.live)
      : computed.plan;
  if (input.mode === 'plan' || plan.steps.length === 0) return { plan, live };
  await input.gate?.(plan, live);
  const options = typeof input.apply === 'function' ? input.apply(plan, live) : input.apply;
  const report = await applyPlan(input.client, plan, options);
  return { plan, live, report };
}
