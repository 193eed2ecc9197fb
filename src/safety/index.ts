/** The safety layer: the gate between plan and apply, the delete journal, and undo. */
export {
  DEFAULT_SAFETY,
  limitsFor,
  resolveSafetyConfig,
  type KindSafety,
  type SafetyConfig,
  type Threshold,
} from './config.js';
export {
  checkPlan,
  countDesired,
  enforce,
  evaluatePlan,
  safetyGate,
  type GateOptions,
  type GateResult,
  type SafetyViolation,
  type Whoami,
} from './gate.js';
export {
  createJournal,
  isDeleteStep,
  journalFileName,
  JOURNAL_VERSION,
  type Journal,
  type JournalOptions,
  type JournalRecord,
} from './journal.js';
export { redactSecrets } from './redact.js';
export { collectParts, undoRecords, type UndoInput, type UndoObject, type UndoPart, type UndoResult } from './undo.js';
export { fetchWhoami } from './whoami.js';
