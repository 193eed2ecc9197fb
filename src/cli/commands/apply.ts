/**
 * `docops apply`: compute the plan (or read a saved one with --plan), print it, pass it through the safety gate,
 * apply it with every delete journaled first, print what happened. Step failures do not stop independent steps;
 * any failure ends the command with ApplyError (exit 1) after the summary is printed. A refused plan exits 3.
 */
import type { ApplyEvent } from '../../engine/apply.js';
import { ApplyError, DocopsError, EXIT } from '../../model/errors.js';
import type { CommandLogger } from '../command-logger.js';
import { shouldColor } from '../../render/ansi.js';
import { stepLine } from '../../render/step-line.js';
import { applyResultData, renderApplyReport, renderJson, stepSources, type ApplyResult } from '../../render/index.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { stdoutIsTTY } from '../io.js';
import { ALLOW_ENV_FLAG, MANIFESTS_FLAG } from '../pipeline.js';
import { planFromManifests } from '../plan-run.js';
import { LATENCY_FLAG, markdownPlan, planCost, renderPlanOutput, stepSummary } from '../plan-output.js';
import { SAFETY_FLAGS, guardedApply, safetySettings, settingsFrom, type SafetySettings } from '../safety.js';
import { configOrganizations, eachOrganization, foreignDocuments } from '../organizations.js';
import type { DesiredState } from '../../model/state.js';
import { join } from 'node:path';
import { manifestDir } from '../pipeline.js';
import { POLICY_FLAG, cliPolicy, policyDigest, policyReport } from '../policy.js';
import { plannedFromSavedPlan } from '../saved-run.js';
import { FORMAT_FLAG, planFormat } from './format-flag.js';

function logStep(logger: CommandLogger, e: ApplyEvent): void {
  const step = e.step.id;
  // `change` says what the step does in words; the pretty log prints it after the message.
  const change = stepLine(e.step);
  if (e.type === 'start') logger.debug({ step }, 'step started');
  else if (e.type === 'done') logger.info({ step, change, durationMs: Math.round(e.durationMs) }, 'step applied');
  // Why a step failed is said once, in the apply report; the log line names the step (the message at debug level).
  else if (e.type === 'failed') {
    logger.warn({ step, change }, 'step failed');
    logger.debug({ step, error: e.error.message }, 'step failed (why)');
  } else if (e.type === 'recovered')
    logger.warn({ step, request: e.request, outcome: e.outcome }, 'create may have reached the server: looked it up');
  else logger.warn({ step, change, reason: e.reason }, 'step skipped');
}

/**
 * On a terminal a person confirms the plan they just read before anything is written (as `terraform apply`
 * asks); anything but `yes` cancels. Without a terminal, or with --yes, nothing is asked.
 */
async function confirm(ctx: CommandContext): Promise<void> {
  const ask = ctx.io.ask;
  if (ask === undefined || ctx.values.yes === true) return;
  const answer = await ask('\nApply these changes? Only "yes" applies them: ');
  if (answer.trim() !== 'yes')
    throw new DocopsError('Apply cancelled: nothing was written. Answer "yes" to apply, or pass --yes.');
}

export const applyCommand: CommandSpec = {
  name: 'apply',
  usage: 'docops apply -m DIR [--plan FILE] [--force] [--format text|markdown|json] [flags]',
  description:
    'Computes the plan (as `docops plan` shows it), prints it, then applies it: creates first, then updates,\n' +
    'then deletes, parents before children. With --plan FILE it applies exactly the steps saved by\n' +
    '`docops plan --out FILE`, after checking that the manifests and the live objects the plan touches are\n' +
    'unchanged (exit 1 saying what changed otherwise). The safety gate refuses plans over the delete/update\n' +
    'thresholds (exit 3; --force lifts the thresholds, never the guards). Every delete is journaled first;\n' +
    '`docops undo JOURNAL` brings the deleted objects back. A failed step skips only the steps that depend\n' +
    'on it; exits 1 if any step failed or the plan left manifest objects blocked (the rest is still applied).\n' +
    'With --format json, stdout is one JSON document {"plan", "result"}. On a terminal, apply shows the plan and\n' +
    'asks before writing (answer yes; --yes skips the question); with stdin not a terminal (CI, a pipe) or with\n' +
    '--plan FILE (a reviewed plan) it applies without asking. With --policy (or the policy: of --config) a\n' +
    'plan a deny rule fired on is refused (exit 3), and so is one a require-approval rule fired on unless\n' +
    '--approved gives the approval checksum of exactly this plan (docs/policy.md).',
  flags: {
    manifests: MANIFESTS_FLAG,
    'allow-env': ALLOW_ENV_FLAG,
    format: FORMAT_FLAG,
    plan: {
      type: 'string',
      value: 'FILE',
      description: 'Apply exactly the plan saved by `docops plan --out FILE` (refused when stale)',
    },
    ...SAFETY_FLAGS,
    yes: { type: 'boolean', description: 'Apply without asking for confirmation on a terminal' },
    'latency-ms': LATENCY_FLAG,
    policy: POLICY_FLAG,
    approved: {
      type: 'string',
      value: 'CHECKSUM',
      description: 'The approval checksum of this exact plan, when a require-approval rule fired and it was approved',
    },
  },
  examples: [
    'docops apply -m manifests',
    'docops apply -m config.example/manifests --sandbox',
    'docops plan -m manifests --out plan.json && docops apply -m manifests --plan plan.json',
    'docops apply -m manifests --prune Team --invite --force',
    'docops apply -m manifests --yes                       # no question on a terminal',
    'docops apply -m manifests --format json --log-format json 2>apply.log',
    'docops apply -m manifests --policy policies/           # refused (exit 3) when a deny rule fires',
  ],
  async run(ctx) {
    const fleet = await configOrganizations(ctx);
    if (!fleet) return applyOne(ctx, await safetySettings(ctx));
    // One section per organization, each with its token, its safety limits and its journal directory.
    const { config } = fleet;
    return eachOrganization(ctx, config, fleet.orgs, planFormat(ctx), (orgCtx, org) => {
      const safety = org.safety ?? config.safety;
      const settings = settingsFrom(orgCtx, {
        ...(safety ? { safety } : {}),
        journalDir: join(config.journalDir, org.id),
        ...(config.policy ? { policy: config.policy } : {}),
      });
      return applyOne(orgCtx, settings, (d) => foreignDocuments(org, d.documents));
    });
  },
};

async function applyOne(
  ctx: CommandContext,
  settings: SafetySettings,
  check?: (desired: DesiredState) => void,
): Promise<number> {
  const format = planFormat(ctx);
  const color = shouldColor({ isTTY: stdoutIsTTY(ctx.io) }, ctx.io.env);
  const policy = await cliPolicy(ctx, settings.policy);
  const manifests = await policyDigest(policy, manifestDir(ctx));
  const savedFile = ctx.values.plan;
  const run =
    typeof savedFile === 'string' ? await plannedFromSavedPlan(ctx, savedFile) : await planFromManifests(ctx, check);
  const { plan } = run;
  const cost = planCost(ctx, plan, run.client);
  // The policy is judged on the plan about to be applied, every time (a saved plan's verdict is never trusted).
  const verdict =
    policy && manifests ? await policyReport(policy, { ...run, manifests, manifestsDir: manifestDir(ctx) }) : undefined;
  if (format !== 'json')
    ctx.io.stdout.write(renderPlanOutput(plan, format, { color, cost, ...(verdict ? { policy: verdict } : {}) }));
  if (verdict)
    (await import('../../policy/gate.js')).enforcePolicy(
      verdict,
      typeof ctx.values.approved === 'string' ? ctx.values.approved : undefined,
    );

  if (plan.steps.length > 0 && typeof savedFile !== 'string') await confirm(ctx);
  const applied: { report: ApplyResult; journalFile?: string } =
    plan.steps.length === 0
      ? { report: { applied: [], failed: [], skipped: [] } }
      : await guardedApply(ctx, settings, { ...run, onStep: (e) => logStep(ctx.logger, e) });
  const { report: result, journalFile } = applied;

  if (format === 'json') {
    const doc = {
      plan: JSON.parse(
        renderJson(plan, verdict ? { policy: (await import('../../policy/render.js')).policyData(verdict) } : {}),
      ) as unknown,
      result: applyResultData(result),
      ...(journalFile ? { journal: journalFile } : {}),
    };
    ctx.io.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  } else if (plan.steps.length > 0) {
    ctx.io.stdout.write('\n' + renderApplyReport(result, format, { color, sources: stepSources(plan) }));
    if (journalFile)
      ctx.io.stdout.write(
        `\nDeleted objects were journaled to ${journalFile} (docops undo ${journalFile} shows how it would bring them back; add --apply to do it).\n`,
      );
  }
  if (plan.steps.length > 0)
    await stepSummary(
      ctx,
      () => markdownPlan(plan, cost) + '\n' + renderApplyReport(result, 'markdown', { sources: stepSources(plan) }),
    );
  if (result.failed.length > 0 || result.unreachable !== undefined || plan.blocked.length > 0) {
    throw new ApplyError(result.failed, result.skipped, plan.blocked, {
      ...(result.unreachable !== undefined ? { unreachable: result.unreachable } : {}),
      incomplete: (result.incomplete ?? []).map((x) => x.summary),
      reported: true,
    });
  }
  return EXIT.ok;
}
