/**
 * Planning from the manifests, as `plan` and `apply` do: the run's planning stages (src/pipeline) with the CLI's
 * load (flags, files) and connection: load → connect → read → diff → attribution.
 */
import type { ApiClient } from '../model/api-client.js';
import { UsageError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan, OwnershipMode } from '../model/plan.js';
import type { DesiredState, LiveState } from '../model/state.js';
import type { LoadInputs } from '../manifests/index.js';
import { recordingClient, type ApiCall } from '../scopes/needs.js';
import type { CommandContext } from './command.js';
import { configuredModes } from './config-file.js';
import { connect, requireCredentials } from './connect.js';
import { loadDesired } from './pipeline.js';
import { countingClient, createProgress, type Progress } from './progress.js';
import { attributionStage, got, planningStages, runStages, type PipelineRun, type Stage } from '../pipeline/index.js';
import { KINDS } from './wiring.js';

function pruneOptions(
  kinds: readonly KindDefinition[],
  prune: readonly string[],
  modes: Record<string, OwnershipMode>,
): Record<string, boolean> {
  const names = kinds.map((k) => k.kind);
  const unknown = prune.filter((p) => !names.includes(p));
  if (unknown.length > 0)
    throw new UsageError(`--prune: unknown kind ${unknown.join(', ')} (known: ${names.join(', ')})`);
  const never = kinds.filter((k) => k.prunable === false && prune.includes(k.kind)).map((k) => k.kind);
  if (never.length > 0)
    throw new UsageError(
      `--prune ${never.join(', ')}: docops never deletes these objects, so pruning them means nothing`,
    );
  // Additive and observe never delete what no manifest writes: pruning such a kind would silently do nothing.
  const owned = prune.filter((p) => modes[p] === 'additive' || modes[p] === 'observe');
  if (owned.length > 0)
    throw new UsageError(
      `--prune ${owned.join(', ')}: the config's mode for ${owned.map((k) => `${k} is ${modes[k]!}`).join(', ')}, which never deletes what no manifest writes`,
    );
  return Object.fromEntries(prune.map((p) => [p, true]));
}

export interface PlannedRun {
  plan: Plan;
  /** The live state the plan was computed from (what a safety gate judges the plan against). */
  live: LiveState;
  desired: DesiredState;
  client: ApiClient;
  kinds: readonly KindDefinition[];
  /** Every read the plan made (what a read-only token must allow: src/scopes). */
  reads: ApiCall[];
  /** The config's ownership mode per kind the plan was made with (--config). */
  modes: Record<string, OwnershipMode>;
  /** What the manifests read besides their files: the data files and variables a saved plan pins. */
  inputs: LoadInputs;
}

/** The CLI's run: the pipeline's, with what `plan` and `apply` show and save besides the plan. */
export interface CliRun extends PipelineRun {
  /** Every read the plan made. */
  reads: ApiCall[];
  /** The client as connected (the run's `client` counts and records the reads through it). */
  connected?: ApiClient;
  modes?: Record<string, OwnershipMode>;
  inputs?: LoadInputs;
}

/** load: the manifests, validated (invalid manifests never reach the API, not even a read); then `check`. */
function loadStage(ctx: CommandContext, check?: (desired: DesiredState) => void): Stage<CliRun> {
  return {
    name: 'manifests',
    phase: 'load',
    reads: [],
    writes: ['desired', 'inputs'],
    async run(run) {
      const { desired, inputs } = await loadDesired(ctx);
      run.desired = desired;
      run.inputs = inputs;
      check?.(desired);
    },
  };
}

/** scope: what the plan prunes and owns (--prune, the modes of --config), and the connection it reads through. */
function connectStage(ctx: CommandContext, progress: Progress): Stage<CliRun> {
  return {
    name: 'connect',
    phase: 'scope',
    reads: [],
    writes: ['options', 'modes', 'client', 'connected'],
    async run(run) {
      const modes = await configuredModes(ctx);
      const prune = pruneOptions(run.kinds, ctx.global.prune, modes);
      const client = await connect(ctx);
      run.modes = modes;
      run.options = { prune, invite: ctx.global.invite, modes };
      run.connected = client;
      // On a terminal, a long fetch (a large organization) shows how many reads are done, as export does.
      run.client = countingClient(recordingClient(client, run.reads), () => progress.tick());
    },
  };
}

/** load → connect → read → diff (progress counts the reads), then the annotation: who made the drift. */
export function cliPlanningStages(
  ctx: CommandContext,
  progress: Progress,
  check?: (desired: DesiredState) => void,
): { reading: Stage<CliRun>[]; annotate: Stage<CliRun>[] } {
  return {
    reading: planningStages({ load: [loadStage(ctx, check)], scope: [connectStage(ctx, progress)] }),
    annotate: [attributionStage],
  };
}

/** `check` judges the loaded manifests before anything is read (an organization's: src/cli/organizations.ts). */
export async function planFromManifests(
  ctx: CommandContext,
  check?: (desired: DesiredState) => void,
): Promise<PlannedRun> {
  requireCredentials(ctx);
  const run: CliRun = { kinds: KINDS, mode: 'plan', reads: [] };
  const progress = createProgress(ctx.io.stderr, 'Reading live state');
  const stages = cliPlanningStages(ctx, progress, check);
  try {
    await runStages(run, stages.reading);
  } finally {
    progress.done();
  }
  // Who made the drift: a separate read after the diff, only when there is drift (src/audit).
  await runStages(run, stages.annotate);
  const plan = got(run, 'plan');
  ctx.logger.info(
    { steps: plan.steps.length, unmanaged: plan.unmanaged.length, warnings: plan.warnings.length },
    'plan computed',
  );
  return {
    plan,
    live: got(run, 'live'),
    desired: got(run, 'desired'),
    client: got(run, 'connected'),
    kinds: run.kinds,
    reads: run.reads,
    modes: got(run, 'modes'),
    inputs: got(run, 'inputs'),
  };
}
