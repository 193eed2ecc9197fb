/**
 * Identity by title or pinned id, shared by kinds whose objects have a free title and a server-made id
 * (Team, Translation, Collection, Space, Site). Entries keyed by `withDisplayKeys` fall back to their
 * title, not their display key. Never guesses: two live objects with the title an unpinned entry asks for is a
 * ConflictError.
 */
import { ConflictError } from '../model/errors.js';
import type { DesiredEntry, LiveObject } from '../model/kind.js';
import type { PlanWarning } from '../model/plan.js';
import type { ManifestDocument } from '../model/document.js';

export interface TitleMatch<E extends DesiredEntry, O extends LiveObject> {
  /** Desired entry → the live object it manages (absent: to be created). */
  matched: Map<E, O>;
  /** Live objects no entry manages. */
  unmatched: O[];
  /** Entries whose pinned id does not exist live (they fell back to matching by title). */
  stalePins: E[];
}

/**
 * Pinned ids are matched first (by id, whatever the live title), then unpinned entries (and entries whose
 * pinned id is gone) by exact title among the live objects not yet claimed.
 */
export function matchByIdOrTitle<E extends DesiredEntry, O extends LiveObject>(
  kind: string,
  desired: readonly E[],
  live: readonly O[],
): TitleMatch<E, O> {
  const matched = new Map<E, O>();
  const claimed = new Set<O>();
  const stalePins: E[] = [];

  // Most manifests pin no ids: index live objects by id only when an entry does.
  let byId: Map<string, O> | undefined;
  const byTitle: E[] = [];
  for (const e of desired) {
    if (e.id === undefined) {
      byTitle.push(e);
      continue;
    }
    if (!byId) {
      byId = new Map();
      for (const o of live) byId.set(o.id, o);
    }
    const o = byId.get(e.id);
    if (o && !claimed.has(o)) {
      matched.set(e, o);
      claimed.add(o);
    } else {
      stalePins.push(e);
      byTitle.push(e);
    }
  }

  // Index by title once (filtering every live object per entry is quadratic: 6,000 spaces, 36M comparisons).
  // The first object of a title is kept directly; only titles two live objects share get a list.
  const first = new Map<string, O>();
  const shared = new Map<string, O[]>();
  for (const o of live) {
    const seen = first.get(o.key);
    if (seen === undefined) first.set(o.key, o);
    else {
      const list = shared.get(o.key);
      if (list) list.push(o);
      else shared.set(o.key, [seen, o]);
    }
  }
  for (const e of byTitle) {
    const title = identityTitle(e);
    const several = shared.get(title);
    let o: O | undefined;
    if (several) {
      const candidates = several.filter((c) => !claimed.has(c));
      if (candidates.length > 1) {
        const at = `${e.source.file}:${e.source.line}:${e.source.column}`;
        throw new ConflictError(
          `${at}: ${kind} "${title}" in organization ${e.org} matches ${candidates.length} live objects ` +
            `(${candidates.map((c) => c.id).join(', ')}); pin the one you mean with spec.id`,
        );
      }
      o = candidates[0];
    } else {
      const only = first.get(title);
      o = only !== undefined && !claimed.has(only) ? only : undefined;
    }
    if (o) {
      matched.set(e, o);
      claimed.add(o);
    }
  }

  return { matched, unmatched: claimed.size === live.length ? [] : live.filter((o) => !claimed.has(o)), stalePins };
}

/**
 * The plan's warning for each entry whose pinned id is gone (matched by title instead: TitleMatch.stalePins; `by`
 * names the title where a kind calls it otherwise, a SAML provider's label).
 */
export function stalePinWarnings(
  kind: string,
  org: string,
  stalePins: readonly DesiredEntry[],
  by = 'title',
): PlanWarning[] {
  return stalePins.map((e) => ({
    kind,
    org,
    key: e.key,
    message: `pinned id ${e.id} does not exist; matched by ${by} instead`,
  }));
}

/** The entry of a document of a title-identified kind: key = spec.title, id = the pinned spec.id, source = `spec`. */
export function titledEntry<S extends { title: string; id?: string }>(
  kind: string,
  doc: ManifestDocument<unknown>,
  spec: S,
): DesiredEntry<S> {
  return identifiedEntry(kind, doc, spec, spec.title);
}

/** The entry of a document identified by `key` (its title, or what the kind calls it) or the pinned spec.id. */
export function identifiedEntry<S extends { id?: string }>(
  kind: string,
  doc: ManifestDocument<unknown>,
  spec: S,
  key: string,
): DesiredEntry<S> {
  const entry: DesiredEntry<S> = { kind, org: doc.metadata.organization, key, spec, source: doc.pos(['spec']), doc };
  if (spec.id !== undefined) entry.id = spec.id;
  return entry;
}

/** Titles of the entries `withDisplayKeys` gave another key (copies → the title they are identified by). */
const titles = new WeakMap<DesiredEntry, string>();

/**
 * A title-or-id kind's entries as its diff keys them: the same entries, except that a pinned entry whose
 * title another entry of the same kind and org shares (allowed when they all pin ids) is replaced by a copy
 * keyed `${title} (${id})`, so its step ids, plan keys and registered key are unique. Entries with a unique
 * title are returned as they are, so their keys and step ids do not change.
 */
export function withDisplayKeys<E extends DesiredEntry>(entries: readonly E[]): E[] {
  // Only pinned entries can get another key, so count only the titles they use; with no pinned entry (the
  // common case) there is nothing to count. Entries of one diff share kind and org, but callers may mix them.
  const at = (e: DesiredEntry): string => `${e.kind}\u0000${e.org}\u0000${e.key}`;
  const count = new Map<string, number>();
  for (const e of entries) if (e.id !== undefined) count.set(at(e), 0);
  if (count.size === 0) return [...entries];
  for (const e of entries) {
    const k = at(e);
    const n = count.get(k);
    if (n !== undefined) count.set(k, n + 1);
  }
  return entries.map((e) => {
    if (e.id === undefined || (count.get(at(e)) ?? 0) < 2) return e;
    const copy: E = { ...e, key: `${e.key} (${e.id})` };
    titles.set(copy, identityTitle(e));
    return copy;
  });
}

/** The title an entry is matched by when its pinned id is gone: its key, unless `withDisplayKeys` changed it. */
export function identityTitle(e: DesiredEntry): string {
  return titles.get(e) ?? e.key;
}
