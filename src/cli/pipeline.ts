/** The steps plan and apply share: load the manifests, connect, compute the plan. */
import { readFileSync } from 'node:fs';
import type { ApiClient } from '../api/types.js';
import { UsageError } from '../core/errors.js';
import type { KindDefinition } from '../core/kind.js';
import type { Plan } from '../core/plan.js';
import { computePlan } from '../core/reconcile.js';
import type { DesiredState, LiveState } from '../core/reconcile.js';
import type { FlagSpec } from './args.js';
import type { CommandContext } from './command.js';
import { connect, requireCredentials } from './connect.js';
import { parseAllowList } from '../manifests/interpolate.js';
import { recordingClient, type ApiCall } from '../scopes/needs.js';
import { countingClient, createProgress } from './progress.js';
import { KINDS, loadManifests } from './wiring.js';
import type { LoadOptions } from '../manifests/load.js';
import type { ReadMemo } from '../core/fetch-context.js';
import { namedScopes, prefetchReads } from '../core/prefetch.js';

export const MANIFESTS_FLAG = {
  type: 'string',
  short: 'm',
  value: 'DIR',
  description: 'Directory of YAML manifests (read recursively)',
} as const satisfies FlagSpec;

export const ALLOW_ENV_FLAG = {
  type: 'string',
  multiple: true,
  value: 'NAME[,NAME…]',
  description: 'Environment variables manifests may read as ${NAME}: names, or prefixes ending in * (repeatable; default DOCOPS_ALLOW_ENV; never DOCOPS_*)',
} as const satisfies FlagSpec;

/** What `${VAR}` in manifests may read: --allow-env, else DOCOPS_ALLOW_ENV; nothing by default. */
export function allowedEnv(ctx: CommandContext): string[] {
  const flag = ctx.values['allow-env'];
  const fromFlag = Array.isArray(flag) && flag.length > 0;
  const { entries, invalid } = parseAllowList(fromFlag ? flag : [ctx.io.env.DOCOPS_ALLOW_ENV ?? '']);
  if (invalid.length > 0) {
    const source = fromFlag ? '--allow-env' : 'DOCOPS_ALLOW_ENV';
    throw new UsageError(`${source}: ${invalid.map((v) => JSON.stringify(v)).join(', ')} is not a variable name or a prefix ending in * (e.g. TEAM_TITLE or TEAM_*)`);
  }
  return entries;
}

/** The API token's possible values (DOCOPS_TOKEN, --token-file): no interpolated variable may carry them. */
function tokenValues(ctx: CommandContext): string[] {
  const values = [ctx.io.env.DOCOPS_TOKEN?.trim() ?? ''];
  if (ctx.global.tokenFile !== undefined) {
    try {
      values.push(readFileSync(ctx.global.tokenFile, 'utf8').trim());
    } catch {
      // connect() reports an unreadable token file; validate needs no token.
    }
  }
  return values.filter((v) => v !== '');
}

export function manifestDir(ctx: CommandContext): string {
  const dir = ctx.values.manifests;
  if (typeof dir !== 'string' || dir === '') throw new UsageError('missing -m DIR (the directory of manifests)');
  return dir;
}

export async function loadDesired(ctx: CommandContext, onParsed?: LoadOptions['onParsed']) {
  const dir = manifestDir(ctx);
  const kinds = KINDS;
  const { documents, desired, warnings } = await loadManifests(dir, kinds, { env: ctx.io.env, allowEnv: allowedEnv(ctx), secrets: tokenValues(ctx), ...(onParsed ? { onParsed } : {}) });
  ctx.logger.debug({ dir, documents: documents.length }, 'manifests loaded');
  return { kinds, documents, desired, warnings };
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
  /** Every read the plan made (what a read-only token must allow: src/scopes). */
  reads: ApiCall[];
}

export async function planFromManifests(ctx: CommandContext): Promise<PlannedRun> {
  requireCredentials(ctx);
  const prune = pruneOptions(KINDS, ctx.global.prune);
  // Connected before the manifests are read: the organization-wide lists start once they are parsed and travel
  // while the documents are validated (src/core/prefetch.ts).
  const client = await connect(ctx);
  const reads: ApiCall[] = [];
  // On a terminal, a long fetch (a large organization) shows how many reads are done, as export does.
  const progress = createProgress(ctx.io.stderr, 'Reading live state');
  const reading = countingClient(recordingClient(client, reads), () => progress.tick());
  const started: ReadMemo = new Map();
  let loaded;
  try {
    loaded = await loadDesired(ctx, (documents) => prefetchReads(reading, namedScopes(documents, KINDS), started));
  } catch (e) {
    progress.done();
    // Invalid manifests: what was started is not waited for (an API that hangs must not hold the error back).
    if (started.size > 0) await client.abandon?.();
    throw e;
  }
  const { kinds, desired } = loaded;
  let computed;
  try {
    computed = await computePlan(reading, kinds, desired, { prune, invite: ctx.global.invite, reads: started });
  } finally {
    progress.done();
  }
  const live = computed.live;
  // Who made the drift: a separate read after the diff, only when there is drift (src/audit).
  const plan = computed.plan.steps.length > 0 ? await (await import('../audit/attribute.js')).attributeDrift(reading, computed.plan, kinds) : computed.plan;
  ctx.logger.info({ steps: plan.steps.length, unmanaged: plan.unmanaged.length, warnings: plan.warnings.length }, 'plan computed');
  return { plan, live, desired, client, kinds, reads };
}
