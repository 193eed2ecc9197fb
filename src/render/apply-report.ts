/**
 * The result summary printed after apply. Structurally the same as core/apply.ts's ApplyReport, declared here so
 * rendering does not depend on the engine.
 */
import { createColors } from './ansi.js';
import { escapeMarkdown } from './markdown.js';
import type { PlanFormat } from './index.js';

export interface ApplyResult {
  applied: string[];
  failed: { stepId: string; message: string }[];
  skipped: string[];
}

function text(r: ApplyResult, color: boolean): string {
  const c = createColors(color);
  const ok = r.failed.length === 0;
  const head = `Apply ${ok ? 'complete' : 'finished with errors'}: ${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} skipped.`;
  const lines = [ok ? c.green(c.bold(head)) : c.red(c.bold(head))];
  for (const f of r.failed) lines.push(`  ${c.red('✗')} ${f.stepId}: ${f.message}`);
  for (const s of r.skipped) lines.push(`  ${c.dim('○')} ${s} ${c.dim('(skipped: depends on a failed step)')}`);
  return lines.join('\n') + '\n';
}

function markdown(r: ApplyResult): string {
  const lines = [
    `### docops apply\n`,
    `**${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} skipped.**`,
  ];
  if (r.failed.length > 0) lines.push('', '**Failed**', '', ...r.failed.map((f) => `- ${escapeMarkdown(`${f.stepId}: ${f.message}`)}`));
  if (r.skipped.length > 0) lines.push('', '**Skipped** (depend on a failed step)', '', ...r.skipped.map((s) => `- ${escapeMarkdown(s)}`));
  return lines.join('\n') + '\n';
}

export function renderApplyReport(result: ApplyResult, format: PlanFormat, options: { color?: boolean } = {}): string {
  if (format === 'json') {
    const { applied, failed, skipped } = result;
    return JSON.stringify({ applied, failed, skipped }, null, 2) + '\n';
  }
  return format === 'markdown' ? markdown(result) : text(result, options.color ?? false);
}
