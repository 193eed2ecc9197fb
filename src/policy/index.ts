/** Policies over plans (docs/policy.md): loaded only when one is configured (each command loads what it uses). */
export { approvalChecksum } from './approval.js';
export { evaluatePolicy } from './evaluate.js';
