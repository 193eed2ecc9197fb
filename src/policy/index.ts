/** Policies over plans (docs/policy.md): loaded only when one is configured (each command loads what it uses). */
export { approvalChecksum, CHECKSUM_PATTERN, type ApprovalInput } from './approval.js';
export { evaluatePolicy, type LoadedPolicy, type LoadedRule } from './evaluate.js';
export { enforcePolicy } from './gate.js';
export { combinePolicy, inlinePolicyPart, loadPolicyPath, policyPathPart, type RuleSource } from './load.js';
export type { Approvers, FiredRule, Outcome, PolicyDecision, PolicyReport, PolicyRule } from './model.js';
