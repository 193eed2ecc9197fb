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

/** A bulleted list of at most MAX_LISTED items, then how many more. */
function bullets<T>(all: readonly T[], item: (x: T) => string): string {
  const items = all.slice(0, MAX_LISTED).map((x) => `- ${item(x)}`);
  if (all.length > MAX_LISTED) items.push(`- … and ${all.length - MAX_LISTED} more`);
  return items.join('\n');
}

/** The summary: "No changes" (or why there is nothing else), else the totals, the table and who made the drift. */
function summary(plan: Plan): string {
  const reported = plan.reported ?? [];
  if (plan.steps.length === 0)
    return `${plan.blocked.length > 0 ? `**${NOTHING_ELSE}**` : reported.length > 0 ? `**${reportedOnly(reported.length)}**` : NO_CHANGES}\n\n`;
  const t = totals(plan.steps);
  const unknown = unavailableLine(plan);
  return `**${summaryLine(t)}**\n\n${summaryTable(plan, t)}\n\n${unknown !== undefined ? `${escapeMarkdown(unknown)}\n\n` : ''}`;
}

/**
 * What stands beside the steps, one line each: blocked objects first (a reviewer must see that the plan falls
 * short), then drift the ownership modes leave alone, what another writer owns, and the warnings.
 */
function listSections(plan: Plan): string[] {
  const reported = plan.reported ?? [];
  const owned = plan.owned ?? [];
  const sections: string[] = [];
  if (plan.blocked.length > 0)
    sections.push(
      `**${escapeMarkdown(blockedHeading(plan.blocked.length))}**\n\n` +
        bullets(plan.blocked, (b) => `:x: ${escapeMarkdown(`${stepLabel(b)}: ${sourcePrefix(b)}${b.message}`)}`),
    );
  if (reported.length > 0)
    sections.push(
      `**${escapeMarkdown(reportedHeading(reported.length))}**\n\n` +
        bullets(reported, (r) =>
          escapeMarkdown(
            `${stepLine(reportedStep(r), 400)} (${[modeTag(r, true), r.note].filter(Boolean).join('; ')})`,
          ),
        ),
    );
  if (owned.length > 0)
    sections.push(
      `**${escapeMarkdown(ownedHeading(owned.length))}**\n\n` + bullets(owned, (o) => escapeMarkdown(ownedLine(o))),
    );
  if (plan.warnings.length > 0)
    sections.push(
      `**Warnings (${plan.warnings.length})**\n\n` +
        bullets(plan.warnings, (w) => escapeMarkdown(`${stepLabel(w)}: ${w.message}`)),
    );
  return sections.map((section) => `${section}\n\n`);
}

/**
 * Per-kind details, in plan order of first appearance. Space is shared so that every kind keeps at least its
 * heading (a collapsed block saying how many of its steps were left out) when the budget runs out; how many steps
 * were shown.
 */
function kindDetails(plan: Plan, byCreate: ReadonlyMap<string, Step[]>, budget: Budget, reserve: number): number {
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
    if (body.length === 0) budget.tryAdd(collapsedBlock(head, hidden), reserveHere);
    else
      budget.add(
        head + FENCE_OPEN + body.join('') + FENCE_CLOSE + (hidden > 0 ? moreLine(hidden) : '') + DETAILS_CLOSE,
      );
  }
  return shown;
}

/** The live objects no manifest mentions, listed in a closed block, or counted in one line when that does not fit. */
function unmanagedSection(plan: Plan, budget: Budget, reserve: number): void {
  const n = plan.unmanaged.length;
  if (n === 0) return;
  const items = bullets(plan.unmanaged, (u) =>
    escapeMarkdown(`${stepLabel(u)}${u.mode !== undefined ? unmanagedTags({ mode: u.mode }) : ''}`),
  );
  const section =
    `<details><summary>Unmanaged: ${n} live object${n === 1 ? '' : 's'} not in any manifest (left alone)</summary>\n\n` +
    `${items}\n\n</details>\n\n`;
  if (!budget.tryAdd(section, reserve)) budget.tryAdd(unmanagedLine(n), reserve);
}

export function renderMarkdown(fullPlan: Plan, options: MarkdownOptions = {}): string {
  // Updates of objects this plan creates are shown under their create (createFollowUps): counted and listed with it.
  const { byCreate, folded } = createFollowUps(fullPlan.steps);
  const plan: Plan = { ...fullPlan, steps: fullPlan.steps.filter((s) => !folded.has(s.id)) };
  const reserve = truncationNote(plan.steps.length, plan.steps.length).length + 2;
  const budget = new Budget(options.maxLength ?? MARKDOWN_MAX_LENGTH);
  budget.add(`### ${options.title ?? 'docops plan'}\n\n`);
  budget.add(summary(plan));
  for (const section of options.sections ?? []) budget.add(`${section}\n\n`);
  for (const note of options.notes ?? []) budget.tryAdd(`${note}\n\n`, reserve);
  for (const section of listSections(plan)) budget.tryAdd(section, reserve);
  const shown = kindDetails(plan, byCreate, budget, reserve);
  unmanagedSection(plan, budget, reserve);
  if (shown < plan.steps.length) budget.add(truncationNote(shown, plan.steps.length));
  return budget.parts.join('').trimEnd() + '\n';
}
