/** Plan and apply from the manifests: load them, connect, fetch, diff. */
import type { ApiClient } from '../model/api-client.js';
import { UsageError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan, OwnershipMode } from '../model/plan.js';
import { computePlan } from '../engine/reconcile.js';
import type { DesiredState, LiveState } from '../model/state.js';
import type { LoadInputs } from '../manifests/index.js';
import { recordingClient, type ApiCall } from '../scopes/needs.js';
import type { CommandContext } from './command.js';
import { configuredModes } from './config-file.js';
import { connect, requireCredentials } from './connect.js';
import { loadDesired } from './pipeline.js';
import { countingClient, createProgress } from './progress.js';

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

/** `check` judges the loaded manifests before anything is read (an organization's: src/cli/organizations.ts). */
export async function planFromManifests(
  ctx: CommandContext,
  check?: (desired: DesiredState) => void,
): Promise<PlannedRun> {
  requireCredentials(ctx);
  // Manifests first: invalid manifests never reach the API, not even a read (test/reliability/bad-input.test.ts).
  const { kinds, desired, inputs } = await loadDesired(ctx);
  check?.(desired);
  const modes = await configuredModes(ctx);
  const prune = pruneOptions(kinds, ctx.global.prune, modes);
  const client = await connect(ctx);
  const reads: ApiCall[] = [];
  // On a terminal, a long fetch (a large organization) shows how many reads are done, as export does.
  const progress = createProgress(ctx.io.stderr, 'Reading live state');
  const reading = countingClient(recordingClient(client, reads), () => progress.tick());
  let computed;
  try {
    computed = await computePlan(reading, kinds, desired, { prune, invite: ctx.global.invite, modes });
  } finally {
    progress.done();
  }
  const live = computed.live;
  // Who made the drift: a separate read after the diff, only when there is drift (src/audit).
  const plan =
    computed.plan.steps.length > 0
      ? await (await import('../audit/attribute.js')).attributeDrift(reading, computed.plan, kinds)
      : computed.plan;
  ctx.logger.info(
    { steps: plan.steps.length, unmanaged: plan.unmanaged.length, warnings: plan.warnings.length },
    'plan computed',
  );
  return { plan, live, desired, client, kinds, reads, modes, inputs };
}
