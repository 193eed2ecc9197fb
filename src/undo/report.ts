/**
 * How `docops undo` reports per journaled object what it does (restore, recreate, nothing: live already, or
 * cannot) and exactly what does not come back. Text and markdown go around the plan; JSON is data.
 */
import type { UndoObject, UndoResult } from '../safety/undo.js';

const OUTCOME: Record<UndoObject['outcome'], string> = {
  restore: 'restore',
  recreate: 'recreate',
  live: 'is back',
  none: 'cannot',
};

const label = (o: UndoObject): string => `${o.kind} ${o.org}/${o.key}${o.id !== undefined ? ` (${o.id})` : ''}`;

function outcomeText(o: UndoObject, offline: boolean): string {
  switch (o.outcome) {
    case 'restore':
      return offline
        ? 'restorable through the API (keeps its id and content): only `docops undo --apply` restores, and checks it still can'
        : 'restored through the API: keeps its id and content';
    case 'recreate':
      return `recreated from its document${o.reason ? ` (not restorable: ${o.reason})` : ''}`;
    case 'live':
      return 'is live again already: nothing to bring back';
    case 'none':
      return `cannot come back: ${o.reason ?? 'unknown reason'}`;
  }
}

export function undoCounts(result: UndoResult): Record<UndoObject['outcome'], number> {
  const c = { restore: 0, recreate: 0, live: 0, none: 0 };
  for (const o of result.objects) c[o.outcome]++;
  return c;
}

export function undoHeadline(journal: string, result: UndoResult): string {
  const c = undoCounts(result);
  const parts = [
    `${c.restore} to restore`,
    `${c.recreate} to recreate`,
    ...(c.live > 0 ? [`${c.live} back already`] : []),
    ...(c.none > 0 ? [`${c.none} cannot come back`] : []),
  ];
  return `Undo of ${journal}: ${result.objects.length} deleted object(s): ${parts.join(', ')}.`;
}

export function renderUndoText(journal: string, result: UndoResult, options: { offline?: boolean } = {}): string {
  const lines = [undoHeadline(journal, result), ''];
  for (const o of result.objects)
    lines.push(`  ${OUTCOME[o.outcome].padEnd(9)} ${label(o)}: ${outcomeText(o, options.offline === true)}`);
  const lost = result.objects.filter((o) => o.losses.length > 0);
  if (lost.length > 0) {
    lines.push('', 'What does not come back:');
    for (const o of lost) for (const l of o.losses) lines.push(`  - ${label(o)}: ${l}`);
  }
  return lines.join('\n') + '\n';
}

export function renderUndoMarkdown(journal: string, result: UndoResult, options: { offline?: boolean } = {}): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [`### ${cell(undoHeadline(journal, result))}`, '', '| | object | what undo does |', '|---|---|---|'];
  for (const o of result.objects)
    lines.push(`| ${OUTCOME[o.outcome]} | \`${cell(label(o))}\` | ${cell(outcomeText(o, options.offline === true))} |`);
  const lost = result.objects.filter((o) => o.losses.length > 0);
  if (lost.length > 0) {
    lines.push('', '#### What does not come back', '');
    for (const o of lost) for (const l of o.losses) lines.push(`- \`${cell(label(o))}\`: ${cell(l)}`);
  }
  return lines.join('\n') + '\n';
}

/** The JSON form: one entry per object, losses included. */
export function undoJson(result: UndoResult): object[] {
  return result.objects.map((o) => ({ ...o }));
}
