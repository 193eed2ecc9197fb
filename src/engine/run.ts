/**
 * A run is a list of named stages (docs/dev/architecture.md, "The run"): load → scope → read → diff → annotate →
 * gate → journal → apply → after. A stage is a small object with one job: it reads part of the run's state (its
 * input) and sets its part (its output). `docops plan`, `docops apply` and the daemon build their lists from the
 * same stages (src/pipeline/); this file holds what the engine alone provides: the runner, and the read, diff and
 * apply stages (reconcileOnce runs just those, with a gate between diff and apply).
 */
import type { ApiClient } from '../model/api-client.js';
import type { ApplyReport } from '../model/apply-report.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan, Step } from '../model/plan.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { applyPlan, type ApplyOptions } from './apply.js';
import { diffAll, fetchLive, type PlanOptions } from './reconcile.js';

/** The phases of a run, in order: a list's stages follow it (the runner refuses a list out of order). */
export const PHASES = ['load', 'scope', 'read', 'diff', 'annotate', 'gate', 'journal', 'apply', 'after'] as const;
export type Phase = (typeof PHASES)[number];

/** What a run knows so far: each stage reads some of it and sets its part. */
export interface RunState {
  readonly kinds: readonly KindDefinition[];
  /** `plan` never writes: the gate, journal and apply stages are skipped. */
  readonly mode: 'plan' | 'apply';
  client?: ApiClient;
  desired?: DesiredState;
  /** What the diff plans: prune, invite, ownership modes, a scoped run's scopes. */
  options?: PlanOptions;
  /** The live state of exactly this desired state and these options, read already: planned from unless it failed. */
  ahead?: Promise<LiveState>;
  live?: LiveState;
  plan?: Plan;
  /** Called before each step is sent (the delete journal). */
  beforeStep?: (step: Step) => Promise<void>;
  report?: ApplyReport;
}

export interface Stage<R extends RunState = RunState> {
  readonly name: string;
  readonly phase: Phase;
  /** Its input: what it reads of the run (the runner checks it is there). */
  readonly reads: readonly (keyof R & string)[];
  /** Its output: what it sets. */
  readonly writes: readonly (keyof R & string)[];
  /** Whether this run has nothing for it to do: skipped, and recorded so. */
  skip?(run: R): boolean;
  run(run: R): Promise<void> | void;
}

/** Per stage, what the run did: when it started and ended (performance.now()), and how it ended. */
export interface StageRecord {
  name: string;
  phase: Phase;
  start: number;
  end: number;
  outcome: 'done' | 'skipped' | 'failed';
}

/** Whether the run writes: apply mode with a step to send (else gate, journal and apply have nothing to do). */
export const writes = (run: RunState): boolean => run.mode === 'apply' && (run.plan?.steps.length ?? 0) > 0;

/** The run's `key`, which an earlier stage set. */
export function got<R extends RunState, K extends keyof R>(run: R, key: K): NonNullable<R[K]> {
  const value = run[key];
  if (value === undefined || value === null) throw new Error(`the run has no ${String(key)} yet`);
  return value;
}

/**
 * Runs the stages in order over `run`, appending to `records` as each ends; a stage that throws is recorded
 * `failed` and the error goes on. A list out of phase order, or a stage whose input is missing, is a programming
 * error: it throws.
 */
export async function runStages<R extends RunState>(
  run: R,
  stages: readonly Stage<R>[],
  records: StageRecord[] = [],
): Promise<StageRecord[]> {
  checkOrder(stages);
  for (const stage of stages) {
    const start = performance.now();
    const record = (outcome: StageRecord['outcome']): void => {
      records.push({ name: stage.name, phase: stage.phase, start, end: performance.now(), outcome });
    };
    if (stage.skip?.(run) === true) {
      record('skipped');
      continue;
    }
    const missing = stage.reads.filter((k) => run[k] === undefined);
    if (missing.length > 0) throw new Error(`stage ${stage.name} runs before its input: ${missing.join(', ')}`);
    try {
      await stage.run(run);
    } catch (err) {
      record('failed');
      throw err;
    }
    record('done');
  }
  return records;
}

function checkOrder(stages: readonly { name: string; phase: Phase }[]): void {
  let at = 0;
  for (const stage of stages) {
    const index = PHASES.indexOf(stage.phase);
    if (index < at) throw new Error(`stage ${stage.name} (${stage.phase}) comes after the ${PHASES[at]} phase`);
    at = index;
  }
}

/** read: the live state of the desired objects (the one read ahead when it succeeded, else fetched now). */
export const readStage: Stage = {
  name: 'read',
  phase: 'read',
  reads: ['client', 'desired', 'options'],
  writes: ['live'],
  async run(run) {
    const ahead = run.ahead ? await run.ahead.catch(() => undefined) : undefined;
    run.live = ahead ?? (await fetchLive(got(run, 'client'), run.kinds, got(run, 'desired'), run.options));
  },
};

/** diff: the plan, from each kind's pure diff of desired against live. */
export const diffStage: Stage = {
  name: 'diff',
  phase: 'diff',
  reads: ['desired', 'live', 'options'],
  writes: ['plan'],
  run(run) {
    run.plan = diffAll(run.kinds, got(run, 'desired'), got(run, 'live'), run.options);
  },
};

/** apply: the plan's steps through the one write gateway, each after the run's `beforeStep` (the journal). */
export function applyStage(options: Omit<ApplyOptions, 'beforeStep'> = {}): Stage {
  return {
    name: 'apply',
    phase: 'apply',
    reads: ['client', 'plan'],
    writes: ['report'],
    skip: (run) => !writes(run),
    async run(run) {
      const beforeStep = run.beforeStep;
      run.report = await applyPlan(got(run, 'client'), got(run, 'plan'), {
        ...options,
        ...(beforeStep ? { beforeStep } : {}),
      });
    },
  };
}

/** A stage that changes the plan with plain data once it has steps (annotate phase); must not throw. */
export function annotateStage<R extends RunState>(
  name: string,
  annotate: (plan: Plan, run: R) => Promise<Plan> | Plan,
): Stage<R> {
  return {
    name,
    phase: 'annotate',
    reads: ['plan', 'live'],
    writes: ['plan'],
    skip: (run) => got(run, 'plan').steps.length === 0,
    async run(run) {
      run.plan = await annotate(got(run, 'plan'), run);
    },
  };
}

/** A gate: throws (SafetyError, PolicyError) to refuse a plan about to be written; skipped when nothing is. */
export function gateStage<R extends RunState>(
  name: string,
  gate: (plan: Plan, live: LiveState, run: R) => Promise<void> | void,
): Stage<R> {
  return {
    name,
    phase: 'gate',
    reads: ['plan', 'live'],
    writes: [],
    skip: (run) => !writes(run),
    async run(run) {
      await gate(got(run, 'plan'), got(run, 'live'), run);
    },
  };
}

export interface ReconcileInput {
  client: ApiClient;
  kinds: readonly KindDefinition[];
  desired: DesiredState;
  mode: 'plan' | 'apply';
  planOptions?: PlanOptions;
  /** The safety gate; throws SafetyError to refuse. Runs only in apply mode, between plan and apply. */
  gate?: (plan: Plan, live: LiveState) => Promise<void>;
  apply?: ApplyOptions;
}

export interface ReconcileOutcome {
  plan: Plan;
  live: LiveState;
  /** Present in apply mode when the plan had steps. */
  report?: ApplyReport;
}

/** The engine's stages alone: read → diff → [gate → apply]. The hosts run longer lists (src/pipeline/). */
export async function reconcileOnce(input: ReconcileInput): Promise<ReconcileOutcome> {
  const { beforeStep, ...apply } = input.apply ?? {};
  const run: RunState = {
    kinds: input.kinds,
    mode: input.mode,
    client: input.client,
    desired: input.desired,
    options: input.planOptions ?? {},
    ...(beforeStep ? { beforeStep } : {}),
  };
  const gate = input.gate;
  await runStages(run, [readStage, diffStage, ...(gate ? [gateStage('gate', gate)] : []), applyStage(apply)]);
  return { plan: got(run, 'plan'), live: got(run, 'live'), ...(run.report ? { report: run.report } : {}) };
}
