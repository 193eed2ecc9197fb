/**
 * The stages both hosts share beyond the engine's own (read, diff, apply: src/engine/run.ts): who made the drift,
 * the safety gate, the delete journal, and the apply with the token's scopes. Each is a small object with one job;
 * what differs between `docops apply` and the daemon is an option of the stage, never a branch inside it.
 */
import { applyStage, annotateStage, gateStage, got, writes, type RunState, type Stage } from '../engine/run.js';
import type { ApplyOptions } from '../engine/apply.js';
import { countDesired, createJournal, safetyGate, type SafetyConfig } from '../safety/index.js';
import type { SafetyViolation, Whoami } from '../safety/gate.js';
import { matchOperation } from '../scopes/operations.js';

/** The run both hosts share: the engine's state, and the journal the run wrote to. */
export interface PipelineRun extends RunState {
  /** The delete journal's file (written only once a delete or prune step starts). */
  journalFile?: string;
}

/** annotate: who made each drift, from the audit log, read only when the plan has steps (src/audit). */
export const attributionStage: Stage<PipelineRun> = annotateStage('attribution', async (plan, run) =>
  (await import('../audit/attribute.js')).attributeDrift(got(run, 'client'), plan, run.kinds),
);

export interface SafetyOptions {
  config: SafetyConfig;
  /** --force: lifts the thresholds, never the guards; what it lifted is told to `onOverridden`. */
  force: boolean;
  /** The token's user for the guards: asked when a plan reaches the gate. */
  whoami: () => Promise<Whoami>;
  onOverridden?: (violations: SafetyViolation[]) => void;
}

/** gate: the safety gate (SafetyError, exit 3), judging the plan against the live state it came from. */
export function safetyStage(options: SafetyOptions): Stage<PipelineRun> {
  return gateStage('safety', (plan, live, run) => {
    const desired = got(run, 'desired');
    return safetyGate(run.kinds, { ...options, desiredCount: countDesired(desired), desired })(plan, live);
  });
}

/** journal: every delete is written to a journal before it is sent (snapshots from the live state planned from). */
export function journalStage(dir: string): Stage<PipelineRun> {
  return {
    name: 'journal',
    phase: 'journal',
    reads: ['client', 'live'],
    writes: ['beforeStep', 'journalFile'],
    skip: (run) => !writes(run),
    run(run) {
      const journal = createJournal(dir, got(run, 'live'), { client: got(run, 'client'), kinds: run.kinds });
      run.beforeStep = journal.beforeStep;
      run.journalFile = journal.file;
    },
  };
}

/** apply: the engine's, with the OAuth scopes of each request (a write refused with 403 names what is lacking). */
export function writeStage(options: Omit<ApplyOptions, 'beforeStep' | 'scopesOf'>): Stage<PipelineRun> {
  return applyStage({ ...options, scopesOf: (method, path) => matchOperation(method, path)?.scopes });
}
