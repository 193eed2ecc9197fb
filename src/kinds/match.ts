/**
 * Identity by title or pinned id, shared by kinds whose objects have a free title and a server-made id
 * (Team, Translation, Collection, Space, Site). Entries keyed by `withDisplayKeys` fall back to their
 * title, not their display key. Never guesses: two live objects with the title an unpinned entry asks for is a
 * ConflictError.
 */
import { ConflictError } from '../model/errors.js';
import type { DesiredEntry, LiveObject } from '../model/kind.js';
import type { PlanWarning } from '../model/plan.js';
import { identityTitle } from './common.js';

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

/** The plan's warning for each entry whose pinned id is gone (matched by title instead: TitleMatch.stalePins). */
export function stalePinWarnings(kind: string, org: string, stalePins: readonly DesiredEntry[]): PlanWarning[] {
  return stalePins.map((e) => ({
    kind,
    org,
    key: e.key,
    message: `pinned id ${e.id} does not exist; matched by title instead`,
  }));
}
