/** Saved plans: the file `docops plan --out` writes and `docops apply --plan` checks and applies; plan cost. */
export { sha256 } from './canonical.js';
export { DEFAULT_LATENCY_MS, costLine, estimateCost, type PlanCost } from './cost.js';
export { manifestsDigest, planChecksum } from './digests.js';
export { createSavedPlan, parseSavedPlan, renderSavedPlan, type SavedPlan } from './saved-plan.js';
export { verifyLive, verifyOffline } from './verify.js';
export { inputsDigest, verifyDataFilesOnDisk, verifyInputs } from './inputs.js';
