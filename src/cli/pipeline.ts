/**
 * The manifest side every manifest-reading command shares (flags, allowed variables, loading). Planning from them
 * (connect, fetch, diff) is plan-run.ts: `validate` loads this module without the planning code.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../model/errors.js';
import type { FlagSpec } from './args.js';
import type { CommandContext } from './command.js';
import { parseAllowList } from '../manifests/interpolate.js';
import { KINDS, loadManifests } from './wiring.js';

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
  description:
    'Environment variables manifests may read as ${NAME}: names, or prefixes ending in * (repeatable; default DOCOPS_ALLOW_ENV; never DOCOPS_*)',
} as const satisfies FlagSpec;

/** What `${VAR}` in manifests may read: --allow-env, else DOCOPS_ALLOW_ENV; nothing by default. */
export function allowedEnv(ctx: CommandContext): string[] {
  const flag = ctx.values['allow-env'];
  const fromFlag = Array.isArray(flag) && flag.length > 0;
  const { entries, invalid } = parseAllowList(fromFlag ? flag : [ctx.io.env.DOCOPS_ALLOW_ENV ?? '']);
  if (invalid.length > 0) {
    const source = fromFlag ? '--allow-env' : 'DOCOPS_ALLOW_ENV';
    throw new UsageError(
      `${source}: ${invalid.map((v) => JSON.stringify(v)).join(', ')} is not a variable name or a prefix ending in * (e.g. TEAM_TITLE or TEAM_*)`,
    );
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

export async function loadDesired(ctx: CommandContext) {
  const dir = manifestDir(ctx);
  const kinds = KINDS;
  const { documents, desired, warnings, inputs } = await loadManifests(dir, kinds, {
    env: ctx.io.env,
    allowEnv: allowedEnv(ctx),
    secrets: tokenValues(ctx),
  });
  ctx.logger.debug({ dir, documents: documents.length }, 'manifests loaded');
  // What the manifests read besides their files (data files, variables): what a saved plan pins (digested only
  // when asked: validate never hashes a spec).
  return { kinds, documents, desired, warnings, inputs };
}
