/**
 * `docops apply`: compute the plan, print it, apply it, print what happened. Step failures do not stop
 * independent steps; any failure ends the command with ApplyError (exit 1) after the summary is printed.
 */
import { applyPlan } from '../../core/apply.js';
import type { ApplyEvent } from '../../core/apply.js';
import { ApplyError, EXIT } from '../../core/errors.js';
import type { Logger } from '../../log.js';
import { shouldColor } from '../../render/ansi.js';
import { renderApplyReport, renderJson, renderPlan } from '../../render/index.js';
import type { CommandSpec } from '../command.js';
import { stdoutIsTTY } from '../io.js';
import { MANIFESTS_FLAG, planFromManifests } from '../pipeline.js';
import { FORMAT_FLAG, planFormat } from './format-flag.js';

function logStep(logger: Logger, e: ApplyEvent): void {
  const step = e.step.id;
  if (e.type === 'start') logger.debug({ step }, 'step started');
  else if (e.type === 'done') logger.info({ step, durationMs: Math.round(e.durationMs) }, 'step applied');
  else if (e.type === 'failed') logger.error({ step, error: e.error.message }, 'step failed');
  else logger.warn({ step, reason: e.reason }, 'step skipped');
}

export const applyCommand: CommandSpec = {
  name: 'apply',
  summary: 'Make the live organization match the manifests',
  usage: 'docops apply -m DIR [--format text|markdown|json] [flags]',
  description:
    'Computes the plan (as `docops plan` shows it), prints it, then applies it: creates first, then updates,\n' +
    'then deletes, parents before children. A failed step skips only the steps that depend on it. Prints a\n' +
    'summary of applied, failed and skipped steps; exits 1 if any step failed. With --format json, stdout is\n' +
    'one JSON document {"plan": …, "result": …}.',
  flags: { manifests: MANIFESTS_FLAG, format: FORMAT_FLAG },
  examples: [
    'docops apply -m manifests',
    'docops apply -m config.example/manifests --sandbox',
    'docops apply -m manifests --prune Team --invite',
    'docops apply -m manifests --format json --log-format json 2>apply.log',
  ],
  async run(ctx) {
    const format = planFormat(ctx);
    const color = shouldColor({ isTTY: stdoutIsTTY(ctx.io) }, ctx.io.env);
    const { plan, client } = await planFromManifests(ctx);
    if (format !== 'json') ctx.io.stdout.write(renderPlan(plan, format, { color }));

    const report =
      plan.steps.length === 0
        ? { applied: [], failed: [], skipped: [] }
        : await applyPlan(client, plan, { concurrency: ctx.global.concurrency, onStep: (e) => logStep(ctx.logger, e) });
    const result = { applied: report.applied, failed: report.failed, skipped: report.skipped };

    if (format === 'json') {
      const doc = { plan: JSON.parse(renderJson(plan)) as unknown, result };
      ctx.io.stdout.write(JSON.stringify(doc, null, 2) + '\n');
    } else if (plan.steps.length > 0) {
      ctx.io.stdout.write('\n' + renderApplyReport(result, format, { color }));
    }
    if (result.failed.length > 0) throw new ApplyError(result.failed, result.skipped);
    return EXIT.ok;
  },
};
