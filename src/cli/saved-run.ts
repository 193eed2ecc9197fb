/**
 * `apply --plan FILE`: read a saved plan, refuse it when it no longer fits (StalePlanError, exit 1, saying what
 * changed: the plan file, a manifest, a data file or a variable the manifests read, a live object), else hand back exactly its steps with freshly read live state for the safety gate and the journal.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../model/errors.js';
import { fetchLive } from '../engine/reconcile.js';
import type { OwnershipMode } from '../model/plan.js';
import {
  inputsDigest,
  manifestsDigest,
  parseSavedPlan,
  verifyDataFilesOnDisk,
  verifyInputs,
  verifyLive,
  verifyOffline,
  type SavedPlan,
} from '../plan-file/index.js';
import { recordingClient, type ApiCall } from '../scopes/needs.js';
import type { CommandContext } from './command.js';
import { configuredModes } from './config-file.js';
import { connect, requireCredentials } from './connect.js';
import { loadDesired, manifestDir } from './pipeline.js';
import type { PlannedRun } from './plan-run.js';

export async function plannedFromSavedPlan(
  ctx: CommandContext,
  file: string,
): Promise<PlannedRun & { saved: SavedPlan }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read plan file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const saved = parseSavedPlan(text, file);
  checkSameOptions(ctx, saved);
  const modes = saved.options.modes ?? {};
  await checkSameModes(ctx, modes);
  requireCredentials(ctx);
  const dir = manifestDir(ctx);
  verifyOffline(saved, await manifestsDigest(dir));
  // The data files and variables the manifests read: those of the plan, unchanged (before any request).
  await verifyDataFilesOnDisk(saved, dir);
  const { kinds, desired, inputs } = await loadDesired(ctx);
  verifyInputs(saved, inputsDigest(inputs));
  const client = await connect(ctx);
  const prune = Object.fromEntries(saved.options.prune.map((k) => [k, true]));
  const reads: ApiCall[] = [];
  const live = await fetchLive(recordingClient(client, reads), kinds, desired, {
    prune,
    invite: saved.options.invite,
    modes,
  });
  verifyLive(saved, live);
  ctx.logger.info(
    { file, steps: saved.plan.steps.length, createdAt: saved.createdAt },
    'saved plan still matches manifests and live state',
  );
  return { plan: saved.plan, live, desired, client, kinds, reads, modes, inputs, saved };
}

/** The kinds' ownership modes are fixed when the plan is made too: a --config that says otherwise needs a new plan. */
async function checkSameModes(ctx: CommandContext, saved: Record<string, OwnershipMode>): Promise<void> {
  if (typeof ctx.values.config !== 'string') return;
  const given = await configuredModes(ctx);
  const show = (m: Record<string, OwnershipMode>): string =>
    Object.keys(m)
      .sort()
      .map((k) => `${k}: ${m[k]!}`)
      .join(', ') || '(every kind authoritative)';
  if (show(given) !== show(saved))
    throw new UsageError(
      `the kinds' modes are fixed when the plan is made (this plan: ${show(saved)}; --config says ${show(given)}); make a new plan`,
    );
}

/** --prune/--invite are fixed when the plan is made; repeating them is fine, changing them is not. */
function checkSameOptions(ctx: CommandContext, saved: SavedPlan): void {
  const given = ctx.global;
  if (given.prune.length === 0 && !given.invite) return;
  const same =
    [...new Set(given.prune)].sort().join(',') === saved.options.prune.join(',') &&
    given.invite === saved.options.invite;
  if (!same) {
    const was = `--prune ${saved.options.prune.join(' ') || '(none)'}, --invite ${saved.options.invite ? 'on' : 'off'}`;
    throw new UsageError(
      `--prune and --invite are fixed when the plan is made (this plan: ${was}); drop them, or make a new plan`,
    );
  }
}
