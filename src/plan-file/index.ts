/** Saved plans: the file `docops plan --out` writes and `docops apply --plan` checks and applies; plan cost. */
export { canonicalJson, digest, sha256 } from './canonical.js';
export { DEFAULT_LATENCY_MS, costLine, estimateCost, formatDuration, type PlanCost } from './cost.js';
export {
  ABSENT,
  changedFiles,
  changedObjects,
  liveDigest,
  manifestsDigest,
  objectLabel,
  planChecksum,
  type LiveDigest,
  type ManifestsDigest,
} from './digests.js';
export {
  SAVED_PLAN_VERSION,
  createSavedPlan,
  parseSavedPlan,
  renderSavedPlan,
  type SavedPlan,
  type SavedPlanOptions,
} from './saved-plan.js';
export { verifyLive, verifyOffline } from './verify.js';
export { inputsDigest, verifyDataFilesOnDisk, verifyInputs, type InputsDigest } from './inputs.js';
