/** The safety layer: the gate between plan and apply, the delete journal, and undo. */
export { resolveSafetyConfig, type SafetyConfig } from './config.js';
export { countDesired, safetyGate } from './gate.js';
export { createJournal } from './journal.js';
export { fetchWhoami } from './whoami.js';
