/** The safety layer: the gate between plan and apply, the delete journal, and undo. */
export { DEFAULT_SAFETY, limitsFor, resolveSafetyConfig, type KindSafety, type SafetyConfig, type Threshold } from './config.js';
export { checkPlan, countDesired, enforce, evaluatePlan, safetyGate, type GateOptions, type GateResult, type SafetyViolation, type Whoami } from './gate.js';
export { createJournal, isDeleteStep, journalFileName, type Journal, type JournalRecord } from './journal.js';
export { redactSecrets } from './redact.js';
export { buildUndo, readJournal, undoRecords, type NotRecreatable, type UndoCaveat, type UndoResult } from './undo.js';
export { undoCommand, UNDO_USAGE, type UndoIO } from './undo-command.js';
export { fetchWhoami } from './whoami.js';
