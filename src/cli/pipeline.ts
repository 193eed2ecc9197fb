/** The steps plan and apply share: load the manifests, connect, compute the plan. */
import type { ApiClient } from '../api/types.js';
import { UsageError } from '../core/errors.js';
import type { KindDefinition } from '../core/kind.js';
import type { Plan } from '../core/plan.js';
import { computePlan } from '../core/reconcile.js';
import type { DesiredState, LiveState } from '../core/reconcile.js';
import type { FlagSpec } from './args.js';
import type { CommandContext } from './command.js';
import { connect, requireCredentials } from './connect.js';
import { KINDS, loadManifests } from './wiring.js';

export const MANIFESTS_FLAG = {
  type: 'string',
  short: 'm',
  value: 'DIR',
  description: 'Directory of YAML manifests (read recursively)',
} as const satisfies FlagSpec;

export function manifestDir(ctx: CommandContext): string {
  const dir = ctx.values.manifests;
  if (typeof dir !== 'string' || dir === '') throw new UsageError('missing -m DIR (the directory of manifests)');
  return dir;
}

export async function loadDesired(ctx: CommandContext) {
  const dir = manifestDir(ctx);
  const kinds = KINDS;
  const { documents, desired } = await loadManifests(dir, kinds, { env: ctx.io.env });
  ctx.logger.debug({ dir, documents: documents.length }, 'manifests loaded');
  return { kinds, documents, desired };
}

function pruneOptions(kinds: readonly KindDefinition[], prune: readonly string[]): Record<string, boolean> {
  const names = kinds.map((k) => k.kind);
  const unknown = prune.filter((p) => !names.includes(p));
  if (unknown.length > 0) throw new UsageError(`--prune: unknown kind ${unknown.join(', ')} (known: ${names.join(', ')})`);
  const never = kinds.filter((k) => k.prunable === false && prune.includes(k.kind)).map((k) => k.kind);
  if (never.length > 0) throw new UsageError(`--prune ${never.join(', ')}: docops never deletes these objects, so pruning them means nothing`);
  return Object.fromEntries(prune.map((p) => [p, true]));
}

export interface PlannedRun {
  plan: Plan;
  /** The live state the plan was computed from (what a safety gate judges the plan against). */
  live: LiveState;
  desired: DesiredState;
  client: ApiClient;
  kinds: readonly KindDefinition[];
}

export async function planFromManifests(ctx: CommandContext): Promise<PlannedRun> {
  requireCredentials(ctx);
  const { kinds, desired } = await loadDesired(ctx);
  const prune = pruneOptions(kinds, ctx.global.prune);
  const client = await connect(ctx);
  const { plan, live } = await computePlan(client, kinds, desired, { prune, invite: ctx.global.invite });
  ctx.logger.info({ steps: plan.steps.length, unmanaged: plan.unmanaged.length, warnings: plan.warnings.length }, 'plan computed');
  return { plan, live, desired, client, kinds };
}
