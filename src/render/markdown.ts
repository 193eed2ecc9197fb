/**
 * Markdown rendering for pull-request comments: a per-kind summary table, then per-kind `<details>` blocks with
 * field-level changes in `diff` fences. GitHub rejects comments over 65,536 characters, so details are cut to a
 * budget and a note says how many steps were left out.
 */
import type { Plan, Step } from '../model/plan.js';
import { stepCounts } from '../model/plan.js';
import { changedByLine, changeOf, unavailableLine } from './attribution.js';
import { stepLine } from './step-line.js';
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
  hasShownValue,
  modeTag,
  ownedHeading,
  ownedLine,
  reportedHeading,
  reportedOnly,
  reportedStep,
  sourcePrefix,
  stepLabel,
  summaryLine,
  totals,
  type Totals,
} from './values.js';

export const MARKDOWN_MAX_LENGTH = 65_536;

export interface MarkdownOptions {
  /** Hard cap on the output length (characters). Default: GitHub's comment limit. */
  maxLength?: number;
  /** Title heading. */
  title?: string;
  /** Extra Markdown paragraphs shown right after the summary table (e.g. the API cost line); not escaped. */
  notes?: string[];
  /** Markdown blocks that must be shown (never cut), right after the summary (e.g. the rules a policy fired); not escaped. */
  sections?: string[];
}

const VALUE_MAX = 300;
const MAX_LISTED = 100;

/** Escape text for inline Markdown/HTML (table cells, list items, <summary>). */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#~])/g, '\\$1')
    .replace(/\r?\n/g, ' ');
}

/** Lines of one step inside a ```diff fence (+ green, - red; updates show - before / + after per field). */
function stepDiffLines(plan: Plan, step: Step, followUps: readonly Step[] = []): string[] {
  const tags = [modeTag(step), step.phase === 'prune' ? 'prune: not in any manifest' : undefined, step.note].filter(
    Boolean,
  );
  const head = `${ACTION_SYMBOL[step.action]} ${stepLabel(step)}${tags.length > 0 ? ` (${tags.join('; ')})` : ''}`;
  const lines = [step.action === 'update' ? `! ${head.slice(2)}` : head];
  if (step.action === 'create') {
    for (const [f, v] of Object.entries(step.after ?? {}))
      lines.push(`+     ${f}: ${formatStepField(step, f, v, VALUE_MAX)}`);
    // Updates of the object this create makes (fields the create cannot set) are shown here, not as `!` steps.
    for (const u of followUps) {
      const why = ['set right after the create', u.note].filter(Boolean).join('; ');
      for (const ch of fieldChanges(u.before, u.after)) {
        if (hasShownValue(u, ch.field, ch.after))
          lines.push(`+     ${ch.field}: ${formatStepField(u, ch.field, ch.after, VALUE_MAX)} (${why})`);
      }
    }
  } else if (step.action === 'update') {
    // A missing side (absent, or null meaning nothing) has no line: the one form of a missing value in a diff.
    for (const ch of fieldChanges(step.before, step.after)) {
      if (hasShownValue(step, ch.field, ch.before))
        lines.push(`-     ${ch.field}: ${formatStepField(step, ch.field, ch.before, VALUE_MAX)}`);
      if (hasShownValue(step, ch.field, ch.after))
        lines.push(`+     ${ch.field}: ${formatStepField(step, ch.field, ch.after, VALUE_MAX)}`);
    }
  }
  const cascades = step.cascades ?? [];
  for (const o of cascades.slice(0, MAX_LISTED)) lines.push(`-     ${CASCADE_PREFIX}${cascadeLabel(o)}`);
  if (cascades.length > MAX_LISTED)
    lines.push(`-     … and ${cascades.length - MAX_LISTED} more it takes with it (see the JSON or text plan)`);
  const by = changeOf(plan, step);
  if (by) lines.push(`      ${changedByLine(by).replace(/\r?\n/g, ' ')}`);
  // A fence is closed by a line of backticks; values never start a line, but keep runs short anyway.
  return lines.map((l) => l.replace(/```/g, '`\u200b`\u200b`'));
}

const counts = (c: { create: number; update: number; delete: number }): string =>
  `${c.create} to add, ${c.update} to change, ${c.delete} to delete`;

/** Appends chunks while they fit in the budget. */
class Budget {
  readonly parts: string[] = [];
  private used = 0;
  constructor(private readonly limit: number) {}
  fits(text: string, reserve = 0): boolean {
    return this.used + text.length + reserve <= this.limit;
  }
  add(text: string): void {
    this.parts.push(text);
    this.used += text.length;
  }
  tryAdd(text: string, reserve = 0): boolean {
    if (!this.fits(text, reserve)) return false;
    this.add(text);
    return true;
  }
}

const FENCE_OPEN = '```diff\n';
const FENCE_CLOSE = '```\n\n';
const DETAILS_CLOSE = '</details>\n\n';

/** A kind's block when none of its steps fit: the heading and how many steps were left out. */
const collapsedBlock = (head: string, hidden: number): string =>
  `${head}_${hidden} step${hidden === 1 ? '' : 's'} not shown (truncated)._\n\n${DETAILS_CLOSE}`;
const moreLine = (hidden: number): string =>
  `_… and ${hidden} more step${hidden === 1 ? '' : 's'} not shown (truncated)._\n\n`;
const unmanagedLine = (n: number): string =>
  `_Unmanaged: ${n} live object${n === 1 ? '' : 's'} not in any manifest (left alone)._\n\n`;

function truncationNote(shown: number, total: number): string {
  return (
    `> **Note:** details truncated to stay under the ${MARKDOWN_MAX_LENGTH.toLocaleString('en-US')}-character comment limit: ` +
    `${shown} of ${total} steps shown. Run \`docops plan --format text\` for the full plan.\n`
  );
}

/** Counts per kind; a "Taken along" column (objects deletes take with them, by their kind) only when there are any. */
function summaryTable(plan: Plan, t: Totals): string {
  const byKind = stepCounts(plan);
  const along = new Map<string, number>();
  for (const s of plan.steps) for (const c of s.cascades ?? []) along.set(c.kind, (along.get(c.kind) ?? 0) + 1);
  if (along.size === 0) {
    const rows = Object.entries(byKind).map(
      ([kind, c]) => `| ${escapeMarkdown(kind)} | ${c.create} | ${c.update} | ${c.delete} |`,
    );
    return `| Kind | Add | Change | Delete |\n| --- | ---: | ---: | ---: |\n${rows.join('\n')}\n| **Total** | ${t.add} | ${t.change} | ${t.delete} |`;
  }
  const kinds = [...Object.keys(byKind), ...[...along.keys()].filter((k) => !(k in byKind)).sort()];
  const rows = kinds.map((kind) => {
    const c = byKind[kind] ?? { create: 0, update: 0, delete: 0 };
    return `| ${escapeMarkdown(kind)} | ${c.create} | ${c.update} | ${c.delete} | ${along.get(kind) ?? 0} |`;
  });
  return (
    `| Kind | Add | Change | Delete | Taken along |\n| --- | ---: | ---: | ---: | ---: |\n${rows.join('\n')}\n` +
    `| **Total** | ${t.add} | ${t.change} | ${t.delete} | ${t.cascaded} |`
  );
}

export function renderMarkdown(fullPlan: Plan, options: MarkdownOptions = {}): string {
  // Updates of objects this plan creates are shown under their create (createFollowUps): counted and listed with it.
  const { byCreate, folded } = createFollowUps(fullPlan.steps);
  const plan: Plan = { ...fullPlan, steps: fullPlan.steps.filter((s) => !folded.has(s.id)) };
  const maxLength = options.maxLength ?? MARKDOWN_MAX_LENGTH;
  const reserve = truncationNote(plan.steps.length, plan.steps.length).length + 2;
  const budget = new Budget(maxLength);
  budget.add(`### ${options.title ?? 'docops plan'}\n\n`);

  const reported = plan.reported ?? [];
  if (plan.steps.length === 0) {
    budget.add(
      `${plan.blocked.length > 0 ? `**${NOTHING_ELSE}**` : reported.length > 0 ? `**${reportedOnly(reported.length)}**` : NO_CHANGES}\n\n`,
    );
  } else {
    const t = totals(plan.steps);
    budget.add(`**${summaryLine(t)}**\n\n${summaryTable(plan, t)}\n\n`);
    const unknown = unavailableLine(plan);
    if (unknown !== undefined) budget.add(`${escapeMarkdown(unknown)}\n\n`);
  }
  for (const section of options.sections ?? []) budget.add(`${section}\n\n`);
  for (const note of options.notes ?? []) budget.tryAdd(`${note}\n\n`, reserve);

  // Blocked objects come before everything optional: a reviewer must see that the plan falls short.
  if (plan.blocked.length > 0) {
    const items = plan.blocked
      .slice(0, MAX_LISTED)
      .map((b) => `- :x: ${escapeMarkdown(`${stepLabel(b)}: ${sourcePrefix(b)}${b.message}`)}`);
    if (plan.blocked.length > MAX_LISTED) items.push(`- … and ${plan.blocked.length - MAX_LISTED} more`);
    budget.tryAdd(`**${escapeMarkdown(blockedHeading(plan.blocked.length))}**\n\n${items.join('\n')}\n\n`, reserve);
  }

  // Drift the ownership modes leave alone, and what another writer owns: one line each (after Blocked).
  if (reported.length > 0) {
    const items = reported
      .slice(0, MAX_LISTED)
      .map(
        (r) =>
          `- ${escapeMarkdown(`${stepLine(reportedStep(r), 400)} (${[modeTag(r, true), r.note].filter(Boolean).join('; ')})`)}`,
      );
    if (reported.length > MAX_LISTED) items.push(`- … and ${reported.length - MAX_LISTED} more`);
    budget.tryAdd(`**${escapeMarkdown(reportedHeading(reported.length))}**\n\n${items.join('\n')}\n\n`, reserve);
  }
  const owned = plan.owned ?? [];
  if (owned.length > 0) {
    const items = owned.slice(0, MAX_LISTED).map((o) => `- ${escapeMarkdown(ownedLine(o))}`);
    if (owned.length > MAX_LISTED) items.push(`- … and ${owned.length - MAX_LISTED} more`);
    budget.tryAdd(`**${escapeMarkdown(ownedHeading(owned.length))}**\n\n${items.join('\n')}\n\n`, reserve);
  }

  if (plan.warnings.length > 0) {
    const items = plan.warnings.slice(0, MAX_LISTED).map((w) => `- ${escapeMarkdown(`${stepLabel(w)}: ${w.message}`)}`);
    if (plan.warnings.length > MAX_LISTED) items.push(`- … and ${plan.warnings.length - MAX_LISTED} more`);
    budget.tryAdd(`**Warnings (${plan.warnings.length})**\n\n${items.join('\n')}\n\n`, reserve);
  }

  // Per-kind details, in plan order of first appearance. Space is shared so that every kind keeps at least its
  // heading (a collapsed block saying how many of its steps were left out) when the budget runs out.
  const byKind = new Map<string, Step[]>();
  for (const s of plan.steps) {
    const list = byKind.get(s.kind);
    if (list) list.push(s);
    else byKind.set(s.kind, [s]);
  }
  const stepCountByKind = stepCounts(plan);
  const kinds = [...byKind].map(([kind, steps]) => ({
    kind,
    steps,
    head: `<details><summary>${escapeMarkdown(kind)}: ${counts(stepCountByKind[kind]!)}</summary>\n\n`,
  }));
  const unmanagedReserve = plan.unmanaged.length > 0 ? unmanagedLine(plan.unmanaged.length).length : 0;
  let laterReserve = kinds.reduce((n, k) => n + collapsedBlock(k.head, k.steps.length).length, 0);
  let shown = 0;
  let truncated = false;
  for (const { head, steps } of kinds) {
    laterReserve -= collapsedBlock(head, steps.length).length;
    const reserveHere = reserve + laterReserve + unmanagedReserve;
    const body: string[] = [];
    let bodyLength = 0;
    for (const [i, step] of steps.entries()) {
      const text = stepDiffLines(plan, step, byCreate.get(step.id)).join('\n') + '\n';
      // Room for this step, the fence, and — unless it is the last — a "more not shown" line.
      const tail =
        i === steps.length - 1 ? FENCE_CLOSE + DETAILS_CLOSE : FENCE_CLOSE + moreLine(steps.length) + DETAILS_CLOSE;
      if (!budget.fits(head + FENCE_OPEN + tail, reserveHere + bodyLength + text.length)) break;
      body.push(text);
      bodyLength += text.length;
    }
    shown += body.length;
    const hidden = steps.length - body.length;
    if (hidden > 0) truncated = true;
    if (body.length === 0) {
      budget.tryAdd(collapsedBlock(head, hidden), reserve + laterReserve + unmanagedReserve);
    } else {
      budget.add(
        head + FENCE_OPEN + body.join('') + FENCE_CLOSE + (hidden > 0 ? moreLine(hidden) : '') + DETAILS_CLOSE,
      );
    }
  }

  if (plan.unmanaged.length > 0) {
    const n = plan.unmanaged.length;
    const items = plan.unmanaged
      .slice(0, MAX_LISTED)
      .map(
        (u) => `- ${escapeMarkdown(`${stepLabel(u)}${u.mode !== undefined ? unmanagedTags({ mode: u.mode }) : ''}`)}`,
      );
    if (n > MAX_LISTED) items.push(`- … and ${n - MAX_LISTED} more`);
    const section =
      `<details><summary>Unmanaged: ${n} live object${n === 1 ? '' : 's'} not in any manifest (left alone)</summary>\n\n` +
      `${items.join('\n')}\n\n</details>\n\n`;
    if (!budget.tryAdd(section, reserve)) budget.tryAdd(unmanagedLine(n), reserve);
  }

  if (truncated) budget.add(truncationNote(shown, plan.steps.length));
  return budget.parts.join('').trimEnd() + '\n';
}
