/** Terraform-like plain-text rendering of a plan, for terminals and CI logs. */
import type { Plan, Step } from '../model/plan.js';
import { createColors } from './ansi.js';
import { changedByLine, changeOf, unavailableLine } from './attribution.js';
import type { Colors } from './ansi.js';
import {
  ACTION_SYMBOL,
  CASCADE_PREFIX,
  NOTHING_ELSE,
  NO_CHANGES,
  unmanagedTags,
  blockedHeading,
  cascadeLabel,
  createFollowUps,
  fieldChanges,
  formatStepField,
  modeTag,
  ownedHeading,
  ownedLine,
  reportedHeading,
  reportedOnly,
  reportedStep,
  sourcePrefix,
  stepLabel,
  summaryLine,
  textTotals,
} from './values.js';

export interface TextOptions {
  color?: boolean;
  /** At most this many unmanaged objects are listed by name (the rest are counted). */
  maxUnmanaged?: number;
}

const INDENT = '  ';
const FIELD_INDENT = '      ';

function colorFor(c: Colors, action: Step['action']): (t: string) => string {
  return action === 'create' ? c.green : action === 'update' ? c.yellow : c.red;
}

/** The fields a follow-up update of a created object sets, as lines under the create. */
function followUpLines(update: Step, c: Colors): string[] {
  const why = ['set right after the create', update.note].filter(Boolean).join('; ');
  return fieldChanges(update.before, update.after)
    .filter((ch) => ch.after !== undefined)
    .map((ch) => `${FIELD_INDENT}${ch.field}: ${formatStepField(update, ch.field, ch.after)}${c.dim(` (${why})`)}`);
}

function stepLines(plan: Plan, step: Step, c: Colors, followUps: readonly Step[] = [], reported = false): string[] {
  const paint = colorFor(c, step.action);
  const tags = [
    modeTag(step, reported),
    step.phase === 'prune' ? 'prune: not in any manifest' : undefined,
    step.note,
  ].filter(Boolean);
  const suffix = tags.length > 0 ? c.dim(` (${tags.join('; ')})`) : '';
  const lines = [`${INDENT}${paint(ACTION_SYMBOL[step.action])} ${c.bold(stepLabel(step))}${suffix}`];
  if (step.action === 'create') {
    for (const [field, value] of Object.entries(step.after ?? {}))
      lines.push(`${FIELD_INDENT}${field}: ${formatStepField(step, field, value)}`);
    for (const u of followUps) lines.push(...followUpLines(u, c));
  } else if (step.action === 'update') {
    for (const ch of fieldChanges(step.before, step.after)) {
      const before = formatStepField(step, ch.field, ch.before);
      const after = formatStepField(step, ch.field, ch.after);
      lines.push(`${FIELD_INDENT}${ch.field}: ${c.red(before)} → ${c.green(after)}`);
    }
  }
  for (const o of step.cascades ?? []) lines.push(`${FIELD_INDENT}${c.red(CASCADE_PREFIX)}${cascadeLabel(o)}`);
  const by = changeOf(plan, step);
  if (by) lines.push(`${FIELD_INDENT}${c.dim(changedByLine(by))}`);
  return lines;
}

export function renderText(plan: Plan, options: TextOptions = {}): string {
  const c = createColors(options.color ?? false);
  const maxUnmanaged = options.maxUnmanaged ?? 50;
  const out: string[] = [];

  const reported = plan.reported ?? [];
  if (plan.steps.length === 0) {
    out.push(
      plan.blocked.length > 0
        ? c.red(NOTHING_ELSE)
        : reported.length > 0
          ? c.yellow(reportedOnly(reported.length))
          : c.green(NO_CHANGES),
    );
  } else {
    out.push('docops will perform the following actions:', '');
    const { byCreate, folded } = createFollowUps(plan.steps);
    for (const step of plan.steps)
      if (!folded.has(step.id)) out.push(...stepLines(plan, step, c, byCreate.get(step.id)));
    out.push('', c.bold(summaryLine(textTotals(plan.steps))));
    const unknown = unavailableLine(plan);
    if (unknown !== undefined) out.push(c.yellow(unknown));
  }

  if (plan.blocked.length > 0) {
    out.push('', c.red(c.bold(blockedHeading(plan.blocked.length))));
    for (const b of plan.blocked) out.push(`${INDENT}${c.red('✗')} ${stepLabel(b)}: ${sourcePrefix(b)}${b.message}`);
  }

  if (reported.length > 0) {
    out.push('', c.yellow(reportedHeading(reported.length)));
    for (const r of reported) out.push(...stepLines(plan, reportedStep(r), c, [], true));
  }

  const owned = plan.owned ?? [];
  if (owned.length > 0) {
    out.push('', ownedHeading(owned.length));
    for (const o of owned) out.push(`${INDENT}${ownedLine(o)}`);
  }

  if (plan.unmanaged.length > 0) {
    const n = plan.unmanaged.length;
    out.push(
      '',
      `Unmanaged: ${n} live object${n === 1 ? '' : 's'} not in any manifest (left alone; enable prune to delete):`,
    );
    for (const u of plan.unmanaged.slice(0, maxUnmanaged))
      out.push(`${INDENT}${stepLabel(u)}${c.dim(unmanagedTags(u))}`);
    if (n > maxUnmanaged) out.push(`${INDENT}… and ${n - maxUnmanaged} more`);
  }

  if (plan.warnings.length > 0) {
    out.push('', c.yellow('Warnings:'));
    for (const w of plan.warnings) out.push(`${INDENT}${c.yellow('!')} ${stepLabel(w)}: ${w.message}`);
  }

  return out.join('\n') + '\n';
}
