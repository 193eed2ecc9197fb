/**
 * Identity by title or pinned id, shared by kinds whose objects have a free title and a server-made id
 * (Team, Translation, Collection, Space, Site). Entries keyed by `withDisplayKeys` fall back to their
 * title, not their display key. Never guesses: two live objects with the title an unpinned entry asks for is a
 * ConflictError.
 */
import { ConflictError } from '../core/errors.js';
import type { DesiredEntry, LiveObject } from '../core/kind.js';
import { identityTitle } from './common.js';

export interface TitleMatch {
  /** Desired entry → the live object it manages (absent: to be created). */
  matched: Map<DesiredEntry, LiveObject>;
  /** Live objects no entry manages. */
  unmatched: LiveObject[];
  /** Entries whose pinned id does not exist live (they fell back to matching by title). */
  stalePins: DesiredEntry[];
}

/**
 * Pinned ids are matched first (by id, whatever the live title), then unpinned entries (and entries whose
 * pinned id is gone) by exact title among the live objects not yet claimed.
 */
export function matchByIdOrTitle(kind: string, desired: readonly DesiredEntry[], live: readonly LiveObject[]): TitleMatch {
  const matched = new Map<DesiredEntry, LiveObject>();
  const claimed = new Set<LiveObject>();
  const stalePins: DesiredEntry[] = [];
  const byId = new Map(live.map((o) => [o.id, o]));

  const byTitle: DesiredEntry[] = [];
  for (const e of desired) {
    if (e.id === undefined) {
      byTitle.push(e);
      continue;
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

  // Index by title once: filtering every live object per entry is quadratic (6,000 spaces: 36M comparisons).
  const byKey = new Map<string, LiveObject[]>();
  for (const o of live) {
    const list = byKey.get(o.key);
    if (list) list.push(o);
    else byKey.set(o.key, [o]);
  }
  for (const e of byTitle) {
    const candidates = (byKey.get(identityTitle(e)) ?? []).filter((o) => !claimed.has(o));
    if (candidates.length > 1) {
      const at = `${e.source.file}:${e.source.line}:${e.source.column}`;
      throw new ConflictError(
        `${at}: ${kind} "${identityTitle(e)}" in organization ${e.org} matches ${candidates.length} live objects ` +
          `(${candidates.map((c) => c.id).join(', ')}); pin the one you mean with spec.id`,
      );
    }
    const o = candidates[0];
    if (o) {
      matched.set(e, o);
      claimed.add(o);
    }
  }

  return { matched, unmatched: live.filter((o) => !claimed.has(o)), stalePins };
}
