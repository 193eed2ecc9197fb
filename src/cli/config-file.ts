/**
 * `--config FILE`: the daemon's docops.yaml, read by the one-shot commands for what it decides besides the daemon:
 * the kinds' ownership modes (`kinds:`, plan and apply) and apply's `safety:` limits and `journalDir`. Read once per
 * command, and only when the flag is given (the loader brings node-cron and compiles the config schema).
 */
import type { OwnershipMode } from '../model/plan.js';
import type { DocopsConfig } from '../config/config.js';
import type { FlagSpecs } from './args.js';
import type { CommandContext } from './command.js';

export const CONFIG_FLAG = {
  type: 'string',
  value: 'FILE',
  description: "Read the kinds' ownership modes (`kinds:`) from this docops.yaml (default: every kind authoritative)",
} as const satisfies FlagSpecs[string];

const read = new WeakMap<CommandContext, Promise<DocopsConfig | undefined>>();

export function configFromFlag(ctx: CommandContext): Promise<DocopsConfig | undefined> {
  let config = read.get(ctx);
  if (!config) read.set(ctx, (config = load(ctx)));
  return config;
}

async function load(ctx: CommandContext): Promise<DocopsConfig | undefined> {
  const file = ctx.values.config;
  if (typeof file !== 'string') return undefined;
  // The daemon's config loader (file:line errors for the whole file); -m stands in for its `manifests`.
  const { loadConfig } = await import('../config/load.js');
  const manifests = typeof ctx.values.manifests === 'string' ? ctx.values.manifests : '.';
  return loadConfig(file, { env: { ...ctx.io.env, DOCOPS_MANIFESTS: manifests } });
}

/** The ownership mode per manifest kind that --config names (none without it). */
export async function configuredModes(ctx: CommandContext): Promise<Record<string, OwnershipMode>> {
  const config = await configFromFlag(ctx);
  const { configModes } = await import('../engine/modes.js');
  return configModes(config?.kinds ?? {});
}
