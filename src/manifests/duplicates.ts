/**
 * Kind-independent checks across all documents: one object defined twice (same kind, org and identity
 * key) or one pinned id used twice. Each is reported at every place involved, naming the other places.
 */
import type { SourcePos, ValidationIssue } from '../core/errors.js';
import type { DesiredEntry } from '../core/kind.js';

const where = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

/**
 * Entries sharing a key. Linear and allocation-light: most keys are unique, so only the first entry is kept
 * per key and a list is made on the first collision (100,000 entries used to cost ~170 ms here).
 */
function groups(entries: readonly DesiredEntry[], keyOf: (e: DesiredEntry) => string | undefined): DesiredEntry[][] {
  const first = new Map<string, DesiredEntry>();
  const shared = new Map<string, DesiredEntry[]>();
  for (const e of entries) {
    const k = keyOf(e);
    if (k === undefined) continue;
    const seen = first.get(k);
    if (seen === undefined) first.set(k, e);
    else {
      const list = shared.get(k);
      if (list) list.push(e);
      else shared.set(k, [seen, e]);
    }
  }
  return [...shared.values()];
}

export function findDuplicates(entries: readonly DesiredEntry[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const group of groups(entries, (e) => `${e.kind}\u0000${e.org}\u0000${e.key}`)) {
    for (const e of group) {
      const others = group.filter((o) => o !== e).map((o) => where(o.source));
      issues.push({ ...e.source, message: `duplicate ${e.kind} ${JSON.stringify(e.key)} in ${e.org}, also defined at ${others.join(', ')}` });
    }
  }
  for (const group of groups(entries, (e) => (e.id === undefined ? undefined : `${e.kind}\u0000${e.id}`))) {
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
