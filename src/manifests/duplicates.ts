/**
 * Kind-independent checks across all documents: one object defined twice (same kind, org and identity
 * key) or one pinned id used twice. Each is reported at every place involved, naming the other places.
 */
import type { SourcePos, ValidationIssue } from '../core/errors.js';
import type { DesiredEntry } from '../core/kind.js';

const where = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

function groups(entries: readonly DesiredEntry[], keyOf: (e: DesiredEntry) => string | undefined): DesiredEntry[][] {
  const byKey = new Map<string, DesiredEntry[]>();
  for (const e of entries) {
    const k = keyOf(e);
    if (k !== undefined) byKey.set(k, [...(byKey.get(k) ?? []), e]);
  }
  return [...byKey.values()].filter((g) => g.length > 1);
}

export function findDuplicates(entries: readonly DesiredEntry[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const group of groups(entries, (e) => JSON.stringify([e.kind, e.org, e.key]))) {
    for (const e of group) {
      const others = group.filter((o) => o !== e).map((o) => where(o.source));
      issues.push({ ...e.source, message: `duplicate ${e.kind} ${JSON.stringify(e.key)} in ${e.org}, also defined at ${others.join(', ')}` });
    }
  }
  for (const group of groups(entries, (e) => (e.id === undefined ? undefined : JSON.stringify([e.kind, e.id])))) {
    for (const e of group) {
      const others = group.filter((o) => o !== e).map((o) => `${o.kind} ${JSON.stringify(o.key)} in ${o.org} at ${where(o.source)}`);
      issues.push({
        ...e.source,
        message: `duplicate ${e.kind} id ${JSON.stringify(e.id)} (pinned by ${e.kind} ${JSON.stringify(e.key)} in ${e.org}), also pinned by ${others.join(', ')}`,
      });
    }
  }
  return issues;
}
