/**
 * The policy gate, beside the safety gate: `deny` refuses the plan (PolicyError, exit 3); `require-approval`
 * refuses it unless an approval of exactly this plan is given (its approval checksum). Never passes a plan the
 * policy could not judge: a rule that failed to evaluate counts as fired (evaluate.ts).
 */
import { PolicyError } from '../model/errors.js';
import type { PolicyReport } from './model.js';

export function enforcePolicy(report: PolicyReport, approved: string | undefined): void {
  const denied = report.fired.filter((f) => f.outcome === 'deny');
  if (denied.length > 0)
    throw new PolicyError(
      denied,
      `${new Set(denied.map((f) => f.rule)).size} deny rule(s) fired; change the manifests (or the policy) and plan again`,
    );
  if (report.decision !== 'require-approval') return;
  const needs = report.fired.filter((f) => f.outcome === 'require-approval');
  const checksum = report.approval?.checksum;
  if (checksum !== undefined && approved === checksum) return;
  const given =
    approved === undefined
      ? ''
      : ` (--approved ${approved} names another plan: the manifests or the live objects changed since it was approved)`;
  throw new PolicyError(
    needs,
    `this plan needs an approval${given}. The daemon applies it once approved; to apply it here, pass --approved ${checksum ?? 'CHECKSUM'} after it was approved (docs/policy.md)`,
  );
}
