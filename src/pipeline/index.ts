/**
 * The run both hosts build (docs/dev/architecture.md, "The run"): `docops plan` runs the planning stages,
 * `docops apply` the planning stages, then (after showing the plan, and asking on a terminal) the writing stages;
 * the daemon runs both at once. The host gives its own stages for what only it does (the CLI's flags and
 * connection, the daemon's scoping, informer and docs health); the shared ones are put in place here.
 */
import { diffStage, readStage, type Stage } from '../engine/run.js';
import type { ApplyOptions } from '../engine/apply.js';
import { journalStage, writeStage, type PipelineRun } from './stages.js';

export { attributionStage, journalStage, safetyStage, writeStage, type PipelineRun } from './stages.js';
export type { SafetyOptions } from './stages.js';
export { runStages, got, writes, annotateStage, gateStage, PHASES } from '../engine/run.js';
export type { Phase, Stage, StageRecord } from '../engine/run.js';

export interface PlanningStages<R extends PipelineRun> {
  /** Sets `desired` (and whatever the host records of the load). */
  load: readonly Stage<R>[];
  /** Sets `options` (what the diff plans) and `client`, when the host has not. */
  scope?: readonly Stage<R>[];
  /** Before the shared read: a read made already (`ahead`). */
  read?: readonly Stage<R>[];
  annotate?: readonly Stage<R>[];
}

/** load → scope → read → diff → annotate. */
export function planningStages<R extends PipelineRun>(s: PlanningStages<R>): Stage<R>[] {
  return [...s.load, ...(s.scope ?? []), ...(s.read ?? []), readStage, diffStage, ...(s.annotate ?? [])];
}

export interface WritingStages<R extends PipelineRun> {
  /** The gates, in order (the safety stage among them); each throws to refuse. */
  gates: readonly Stage<R>[];
  journalDir: string;
  apply: Omit<ApplyOptions, 'beforeStep' | 'scopesOf'>;
  after?: readonly Stage<R>[];
}

/** gates → journal → apply → after: the gates, journal and apply are skipped when nothing is to be written. */
export function writingStages<R extends PipelineRun>(s: WritingStages<R>): Stage<R>[] {
  return [...s.gates, journalStage(s.journalDir), writeStage(s.apply), ...(s.after ?? [])];
}
