/** `docops plan`: compute what apply would change and print it; never writes to the API. */
import { writeFile } from 'node:fs/promises';
import { EXIT } from '../../core/errors.js';
import { renderJson, renderPlan } from '../../render/index.js';
import type { CommandSpec } from '../command.js';
import { stdoutIsTTY } from '../io.js';
import { MANIFESTS_FLAG, planFromManifests } from '../pipeline.js';
import { shouldColor } from '../../render/ansi.js';
import { FORMAT_FLAG, planFormat } from './format-flag.js';

export const planCommand: CommandSpec = {
  name: 'plan',
  summary: 'Show the changes apply would make (read-only)',
  usage: 'docops plan -m DIR [--format text|markdown|json] [--detailed-exitcode] [flags]',
  description:
    'Loads the manifests, reads the live state through the API and prints the plan: what apply would create,\n' +
    'update and delete, field by field. Nothing is written. With --detailed-exitcode the exit code is 2 when\n' +
    'there are changes, so CI can tell "in sync" from "drifted".',
  flags: {
    manifests: MANIFESTS_FLAG,
    format: FORMAT_FLAG,
    'detailed-exitcode': { type: 'boolean', description: 'Exit 2 when the plan has changes (0 when none, 1 on error)' },
    out: { type: 'string', value: 'FILE', description: 'Also write the plan as JSON to FILE' },
  },
  examples: [
    'docops plan -m manifests',
    'DOCOPS_TOKEN=… docops plan -m manifests --format markdown > plan.md',
    'docops plan -m config.example/manifests --sandbox --detailed-exitcode',
    'docops plan -m manifests --format json --prune Team | jq .steps',
  ],
  async run(ctx) {
    const format = planFormat(ctx);
    const { plan } = await planFromManifests(ctx);
    ctx.io.stdout.write(renderPlan(plan, format, { color: shouldColor({ isTTY: stdoutIsTTY(ctx.io) }, ctx.io.env) }));
    const out = ctx.values.out;
    if (typeof out === 'string') {
      await writeFile(out, renderJson(plan), 'utf8');
      ctx.logger.info({ file: out }, 'plan written');
    }
    return ctx.values['detailed-exitcode'] === true && plan.steps.length > 0 ? EXIT.changesPending : EXIT.ok;
  },
};
