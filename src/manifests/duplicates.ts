/**
 * Kind-independent checks across all documents: one object defined twice (same kind, org and identity
 * key, at least one of them without a pinned id) or one pinned id used twice. Each is reported at every
 * place involved, naming the other places. Entries that all pin ids may share a key (two teams with one
 * title): they are identified by their ids, and the kinds give them distinct step keys (common.ts
 * `withDisplayKeys`).
 */
import type { SourcePos, ValidationIssue } from '../model/errors.js';
import type { DesiredEntry, IdentityLookup } from '../model/kind.js';

const where = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

/**
 * The identity index, and the entries sharing (kind, org, key). Linear and allocation-light: first entries
 * are kept in maps nested by kind and org (entries come grouped by kind, so the inner map is reused), and a
 * joined key and a list are made only on a collision. Joining kind, org and key for every one of 100,000
 * entries cost ~60 ms.
 */
function identityGroups(desired: ReadonlyMap<string, readonly DesiredEntry[]>): {
  index: IdentityLookup;
  groups: DesiredEntry[][];
} {
  const first = new Map<string, Map<string, Map<string, DesiredEntry>>>();
  const shared = new Map<string, DesiredEntry[]>();
  let keys: Map<string, DesiredEntry> | undefined;
  let kind: string | undefined;
  let org: string | undefined;
  for (const entries of desired.values()) {
    for (const e of entries) {
      if (!keys || e.kind !== kind || e.org !== org) {
        kind = e.kind;
        org = e.org;
        let byOrg = first.get(kind);
        if (!byOrg) first.set(kind, (byOrg = new Map()));
        keys = byOrg.get(org);
        if (!keys) byOrg.set(org, (keys = new Map()));
      }
      const seen = keys.get(e.key);
      if (seen === undefined) keys.set(e.key, e);
      else addShared(shared, `${e.kind}\u0000${e.org}\u0000${e.key}`, seen, e);
    }
  }
  return { index: { keys: (k, o) => first.get(k)?.get(o) }, groups: [...shared.values()] };
}

/** Entries sharing a pinned id within a kind (few entries pin ids). */
function idGroups(desired: ReadonlyMap<string, readonly DesiredEntry[]>): DesiredEntry[][] {
  const first = new Map<string, DesiredEntry>();
  const shared = new Map<string, DesiredEntry[]>();
  for (const entries of desired.values()) {
    for (const e of entries) {
      if (e.id === undefined) continue;
      const k = `${e.kind}\u0000${e.id}`;
      const seen = first.get(k);
      if (seen === undefined) first.set(k, e);
      else addShared(shared, k, seen, e);
    }
  }
  return [...shared.values()];
}

function addShared(shared: Map<string, DesiredEntry[]>, k: string, seen: DesiredEntry, e: DesiredEntry): void {
  const list = shared.get(k);
  if (list) list.push(e);
  else shared.set(k, [seen, e]);
}

/** An unpinned entry is matched by its key, so a second entry with that key makes it ambiguous. */
const ambiguous = (group: readonly DesiredEntry[]): boolean => group.some((e) => e.id === undefined);

/** Duplicate identities and pinned ids across all documents, and the identity index (desired: kind → entries). */
export function findDuplicates(desired: ReadonlyMap<string, readonly DesiredEntry[]>): {
  issues: ValidationIssue[];
  index: IdentityLookup;
} {
  const issues: ValidationIssue[] = [];
  const { index, groups } = identityGroups(desired);
  for (const group of groups) {
    if (!ambiguous(group)) continue;
    for (const e of group) {
      const others = group.filter((o) => o !== e).map((o) => where(o.source));
      issues.push({
        ...e.source,
        message: `duplicate ${e.kind} ${JSON.stringify(e.key)} in ${e.org}, also defined at ${others.join(', ')}`,
      });
    }
  }
  for (const group of idGroups(desired)) {
    for (const e of group) {
      const others = group
        .filter((o) => o !== e)
        .map((o) => `${o.kind} ${JSON.stringify(o.key)} in ${o.org} at ${where(o.source)}`);
      issues.push({
        ...e.source,
        message: `duplicate ${e.kind} id ${JSON.stringify(e.id)} (pinned by ${e.kind} ${JSON.stringify(e.key)} in ${e.org}), also pinned by ${others.join(', ')}`,
      });
    }
  }
  return { issues, index };
}
