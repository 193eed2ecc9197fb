/**
 * The result summary printed after apply. Structurally the same as core/apply.ts's ApplyReport, declared here so
 * rendering does not depend on the engine.
 */
import { createColors } from './ansi.js';
import { escapeMarkdown } from './markdown.js';
import type { PlanFormat } from './format.js';

export interface ApplyResult {
  applied: string[];
  failed: { stepId: string; message: string }[];
  /** Steps not attempted. */
  skipped: string[];
  /** Why each skipped step was not attempted. */
  skipReasons?: Record<string, string>;
  /** Set when the API became unreachable and apply stopped starting steps: the failure that showed it. */
  unreachable?: string;
  /** Objects created by steps whose later requests or dependent steps did not complete; `summary` says it all. */
  incomplete?: { stepId: string; kind: string; key: string; id: string; summary: string }[];
}

const reasonOf = (r: ApplyResult, id: string): string => r.skipReasons?.[id] ?? 'depends on a failed step';

type Place = { file: string; line: number; column: number };
/** Where the manifest writes each step's object (a plan's `Step.source`), by step id. */
export type StepSources = ReadonlyMap<string, Place>;

/** The places of a plan's steps. */
export function stepSources(plan: { steps: readonly { id: string; source?: Place }[] }): StepSources {
  return new Map(plan.steps.flatMap((s) => (s.source ? [[s.id, s.source] as const] : [])));
}

/** A failed step's message, after the place of what the API refused when the plan knows it. */
function failure(f: ApplyResult['failed'][number], sources: StepSources | undefined): string {
  const at = sources?.get(f.stepId);
  return at ? `${at.file}:${at.line}:${at.column}: ${f.message}` : f.message;
}

function headline(r: ApplyResult): string {
  const counts = `${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} skipped.`;
  if (r.unreachable !== undefined) return `Apply stopped, the API is unreachable: ${counts}`;
  return `Apply ${r.failed.length === 0 ? 'complete' : 'finished with errors'}: ${counts}`;
}

function text(r: ApplyResult, color: boolean, sources?: StepSources): string {
  const c = createColors(color);
  const ok = r.failed.length === 0 && r.unreachable === undefined;
  const head = headline(r);
  const lines = [ok ? c.green(c.bold(head)) : c.red(c.bold(head))];
  if (r.unreachable !== undefined)
    lines.push(
      `  The steps in flight finished; the ${r.skipped.length} not started were not attempted. Last error: ${r.unreachable}`,
    );
  for (const f of r.failed) lines.push(`  ${c.red('✗')} ${f.stepId}: ${failure(f, sources)}`);
  for (const s of r.skipped) lines.push(`  ${c.dim('○')} ${s} ${c.dim(`(not attempted: ${reasonOf(r, s)})`)}`);
  if ((r.incomplete ?? []).length > 0) {
    lines.push('', c.bold('Left behind:'));
    for (const x of r.incomplete ?? []) lines.push(`  ${c.red('!')} ${x.summary}`);
  }
  return lines.join('\n') + '\n';
}

function markdown(r: ApplyResult, sources?: StepSources): string {
  const lines = [`### docops apply\n`, `**${escapeMarkdown(headline(r))}**`];
  if (r.unreachable !== undefined)
    lines.push(
      '',
      escapeMarkdown(`The steps in flight finished; the rest were not attempted. Last error: ${r.unreachable}`),
    );
  if (r.failed.length > 0)
    lines.push(
      '',
      '**Failed**',
      '',
      ...r.failed.map((f) => `- ${escapeMarkdown(`${f.stepId}: ${failure(f, sources)}`)}`),
    );
  if (r.skipped.length > 0)
    lines.push('', '**Not attempted**', '', ...r.skipped.map((s) => `- ${escapeMarkdown(`${s} (${reasonOf(r, s)})`)}`));
  if ((r.incomplete ?? []).length > 0)
    lines.push('', '**Left behind**', '', ...(r.incomplete ?? []).map((x) => `- ${escapeMarkdown(x.summary)}`));
  return lines.join('\n') + '\n';
}

/** The result as plain data (the JSON form, and `result` of `apply --format json`). */
export function applyResultData(r: ApplyResult): object {
  const { applied, failed, skipped } = r;
  return {
    applied,
    failed,
    skipped,
    skipReasons: r.skipReasons ?? {},
    ...(r.unreachable !== undefined ? { unreachable: r.unreachable } : {}),
    incomplete: r.incomplete ?? [],
  };
}

export function renderApplyReport(
  result: ApplyResult,
  format: PlanFormat,
  options: { color?: boolean; sources?: StepSources } = {},
): string {
  if (format === 'json') return JSON.stringify(applyResultData(result), null, 2) + '\n';
  return format === 'markdown'
    ? markdown(result, options.sources)
    : text(result, options.color ?? false, options.sources);
}
