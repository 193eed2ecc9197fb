/** The --format flag shared by plan and apply. */
import { UsageError } from '../../model/errors.js';
import { PLAN_FORMATS, isPlanFormat } from '../../render/index.js';
import type { PlanFormat } from '../../render/index.js';
import type { FlagSpec } from '../args.js';
import type { CommandContext } from '../command.js';

export const FORMAT_FLAG = {
  type: 'string',
  short: 'f',
  value: 'FORMAT',
  description: `Output format: ${PLAN_FORMATS.join('|')} (default text; markdown fits a PR comment)`,
} as const satisfies FlagSpec;

export function planFormat(ctx: CommandContext): PlanFormat {
  const raw = ctx.values.format ?? 'text';
  if (typeof raw !== 'string' || !isPlanFormat(raw))
    throw new UsageError(`--format must be one of ${PLAN_FORMATS.join(', ')}, got "${String(raw)}"`);
  return raw;
}
