/**
 * The safety layer as the CLI's apply uses it: the run's writing stages (src/pipeline: the safety gate, exit 3 on
 * refusal; the delete journal; the apply), and where their settings come from (--force, --config's `safety:` and
 * `journalDir`, --journal-dir).
 */
import { access } from 'node:fs/promises';
import type { ApiClient } from '../model/api-client.js';
import type { ApplyReport } from '../model/apply-report.js';
import type { KindDefinition } from '../model/kind.js';
import type { Plan } from '../model/plan.js';
import type { DesiredState, LiveState } from '../model/state.js';
import { fetchWhoami, resolveSafetyConfig, type SafetyConfig } from '../safety/index.js';
import { got, runStages, safetyStage, writingStages, type PipelineRun, type Stage } from '../pipeline/index.js';
import type { FlagSpecs } from './args.js';
import type { CommandContext } from './command.js';
import type { ApplyEvent } from '../engine/apply.js';
import { CONFIG_FLAG, configFromFlag } from './config-file.js';
import type { LoadedPolicy } from '../policy/evaluate.js';

import { DEFAULT_JOURNAL_DIR } from '../safety/journal-dir.js';

export { DEFAULT_JOURNAL_DIR };

export const SAFETY_FLAGS = {
  force: {
    type: 'boolean',
    description:
      'Apply even when the plan exceeds the delete/update thresholds (never lifts guards or the prune-everything rules)',
  },
  config: {
    ...CONFIG_FLAG,
    description:
      "Read the `safety:` limits, `journalDir`, `policy:` and the kinds' ownership modes (`kinds:`) from this docops.yaml (default: built-in limits, every kind authoritative); with organizations: apply each one (its manifests, its token) in a section of its own",
  },
  'journal-dir': {
    type: 'string',
    value: 'DIR',
    description: `Where delete journals are written (default ${DEFAULT_JOURNAL_DIR})`,
  },
} as const satisfies FlagSpecs;

export interface SafetySettings {
  config: SafetyConfig;
  /** The `policy:` of --config, when it has one (validated, its rules compiled). */
  policy?: LoadedPolicy;
  journalDir: string;
  force: boolean;
}

export async function safetySettings(ctx: CommandContext): Promise<SafetySettings> {
  const fromFile: { safety?: Record<string, unknown>; journalDir?: string; policy?: LoadedPolicy } =
    (await configFromFlag(ctx)) ?? {};
  return settingsFrom(ctx, fromFile);
}

/** The settings from a config's `safety:`, `journalDir` and `policy:` (an organization's: its own safety, its own journal directory). */
export function settingsFrom(
  ctx: CommandContext,
  fromFile: { safety?: Record<string, unknown>; journalDir?: string; policy?: LoadedPolicy },
): SafetySettings {
  const flagDir = ctx.values['journal-dir'];
  return {
    config: resolveSafetyConfig(fromFile.safety ?? {}),
    journalDir: typeof flagDir === 'string' && flagDir !== '' ? flagDir : (fromFile.journalDir ?? DEFAULT_JOURNAL_DIR),
    force: ctx.values.force === true,
    ...(fromFile.policy ? { policy: fromFile.policy } : {}),
  };
}

export interface GuardedApplyInput {
  client: ApiClient;
  kinds: readonly KindDefinition[];
  plan: Plan;
  /** The live state the plan is judged against and deletes are journaled from. */
  live: LiveState;
  desired: DesiredState;
  onStep?: (e: ApplyEvent) => void;
}

export interface GuardedApplyResult {
  report: ApplyReport;
  /** The delete journal, when any delete or prune step started. */
  journalFile?: string;
}

/** safety → journal → apply: `--force` lifts the thresholds (said in a warning), `--journal-dir` places the journal. */
export function cliWritingStages(
  ctx: CommandContext,
  settings: SafetySettings,
  client: ApiClient,
  onStep?: (e: ApplyEvent) => void,
): Stage<PipelineRun>[] {
  const safety = safetyStage({
    config: settings.config,
    force: settings.force,
    whoami: () => fetchWhoami(client),
    onOverridden: (violations) => {
      for (const v of violations)
        ctx.logger.warn({ rule: v.rule, kind: v.kind, org: v.org }, `--force overrides: ${v.message}`);
    },
  });
  const apply = { concurrency: ctx.global.concurrency, ...(onStep ? { onStep } : {}) };
  return writingStages({ gates: [safety], journalDir: settings.journalDir, apply });
}

/** The run's writing stages: gate (throws SafetyError, exit 3), then apply with every delete journaled first. */
export async function guardedApply(
  ctx: CommandContext,
  settings: SafetySettings,
  input: GuardedApplyInput,
): Promise<GuardedApplyResult> {
  const { client, kinds, plan, live, desired } = input;
  const run: PipelineRun = { kinds, mode: 'apply', client, desired, live, plan };
  await runStages(run, cliWritingStages(ctx, settings, client, input.onStep));
  const report = got(run, 'report');
  const file = run.journalFile;
  return file !== undefined && (await exists(file)) ? { report, journalFile: file } : { report };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
