/**
 * A policy over a plan → which rules fired on which changes. Pure over the plan (plus the time it may take): each
 * rule is evaluated once per change; it fires where `when` is true, and where it cannot be evaluated (an error, or
 * a value that is not true or false: the rule fires with the error said — an error never passes a plan). The whole
 * evaluation runs under a deadline; running out of it is a `deny` naming the rule that was running.
 */
import type { Plan } from '../model/plan.js';
import {
  DEADLINE_BASE_MS,
  DEADLINE_PER_EVALUATION_MS,
  DeadlineExceeded,
  withDeadline,
  type CompiledRule,
} from './cel.js';
import { decisionOf, type FiredRule, type PolicyReport, type PolicyRule, type PolicySet } from './model.js';
import { planView } from './view.js';

export interface LoadedRule extends PolicyRule {
  compiled: CompiledRule;
}

export interface LoadedPolicy extends PolicySet {
  rules: LoadedRule[];
}

export interface EvaluateOptions {
  /** Every kind name (so `plan.counts[KIND]` always exists). */
  kinds: readonly string[];
  /** Default: DEADLINE_BASE_MS plus DEADLINE_PER_EVALUATION_MS per rule and change. */
  deadlineMs?: number;
}

export function evaluatePolicy(policy: LoadedPolicy, plan: Plan, options: EvaluateOptions): PolicyReport {
  const view = planView(plan, options.kinds);
  const fired: FiredRule[] = [];
  let running: LoadedRule | undefined;
  try {
    const deadline =
      options.deadlineMs ??
      Math.ceil(DEADLINE_BASE_MS + DEADLINE_PER_EVALUATION_MS * policy.rules.length * plan.steps.length);
    withDeadline(deadline, () => {
      for (const rule of policy.rules) {
        running = rule;
        view.changes.forEach((change, i) => {
          const step = plan.steps[i]!;
          const hit = (error?: string): void => {
            fired.push({
              rule: rule.name,
              outcome: rule.outcome,
              message: rule.message,
              step: step.id,
              object: `${step.kind} ${step.org}/${step.key}`,
              ...(step.source ? { source: step.source } : {}),
              ruleSource: rule.source,
              ...(error !== undefined ? { error } : {}),
            });
          };
          let value: unknown;
          try {
            value = rule.compiled.evaluate({ change, plan: view });
          } catch (err) {
            return hit(`cannot be evaluated on this change: ${firstLine(err)}`);
          }
          if (value === true) hit();
          else if (value !== false)
            hit(
              `gave ${typeof value === 'bigint' ? 'an int' : (JSON.stringify(value) ?? typeof value)}, not true or false`,
            );
        });
      }
    });
  } catch (err) {
    if (!(err instanceof DeadlineExceeded)) throw err;
    const rule = running!;
    fired.push({
      rule: rule.name,
      outcome: 'deny',
      message: rule.message,
      step: '',
      object: 'the plan',
      ruleSource: rule.source,
      error: `${err.message} (rule ${rule.name} was running): the plan is refused`,
    });
  }
  return { rules: policy.rules.length, fired, decision: decisionOf(fired) };
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err)
    .split('\n')[0]!
    .trim();
}
