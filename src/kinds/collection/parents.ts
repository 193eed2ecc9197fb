/**
 * Which Collection manifests cannot be planned because of their `parent`, decided before any of them registers
 * an id (a blocked collection registers nothing, so whatever names it is blocked in turn):
 * - the parent resolves to nothing: neither a Collection manifest that is planned, nor a live collection (by
 *   title or id);
 * - the parent is inside the collection itself once the plan is applied — through live parents, manifest
 *   parents or both, by title or by id. The API refuses such a move; it is caught before any write.
 * Blocking one collection can leave another without its parent, so both checks repeat until nothing changes.
 */
import type { DesiredEntry, DiffContext } from '../../model/kind.js';
import type { CollectionObject, CollectionSpec } from './model.js';
import { unresolvedParentMessage } from '../parent-refs.js';

type Entry = DesiredEntry<CollectionSpec>;

/** The written parent of a Collection entry: a title or id, null (top level), undefined (not managed). */
type ParentOf = (e: Entry) => string | null | undefined;

export interface ParentScope {
  ctx: DiffContext;
  org: string;
  /** Desired entries, keyed as the diff registers them. */
  desired: readonly Entry[];
  matched: ReadonlyMap<Entry, CollectionObject>;
  live: readonly CollectionObject[];
  parentOf: ParentOf;
  /** The kind's own resolution of a parent not named by a desired entry (live title or id); undefined: nothing. */
  resolveLive: (parent: string) => string | undefined;
  /** Entries blocked already for another reason (their access list): they count as blocked from the start. */
  blocked?: ReadonlySet<Entry>;
}

/**
 * Desired entries that cannot be planned → why (the message names the written parent); the entries of
 * `s.blocked` are in it too, with an empty message (their block is reported already).
 */
export function blockedByParent(s: ParentScope): Map<Entry, string> {
  const blocked = new Map<Entry, string>([...(s.blocked ?? [])].map((e) => [e, '']));
  const byKey = new Map<string, Entry>();
  for (const e of s.desired) if (!byKey.has(e.key)) byKey.set(e.key, e);
  // A node per collection: its live id, or a marker for one created in this plan (no id yet).
  const nodeOf = (e: Entry): string => s.matched.get(e)?.id ?? `\u0000new\u0000${e.key}`;
  const resolve = (p: string): string | undefined => {
    const d = byKey.get(p);
    if (d && !blocked.has(d)) return nodeOf(d);
    return s.resolveLive(p);
  };
  const written = (e: Entry): string | undefined => {
    const p = s.parentOf(e);
    return typeof p === 'string' ? p : undefined;
  };

  for (;;) {
    let grew = false;
    for (const e of s.desired) {
      const p = written(e);
      if (p === undefined || blocked.has(e) || resolve(p) !== undefined) continue;
      blocked.set(e, unresolvedParentMessage(p));
      grew = true;
    }
    if (grew) continue;
    const cycles = ownAncestors(s, blocked, nodeOf, resolve);
    if (cycles.size === 0) return blocked;
    for (const [e, message] of cycles) blocked.set(e, message);
  }
}

/** Planned entries whose parent, after the plan, is the collection itself or inside it. */
function ownAncestors(
  s: ParentScope,
  blocked: ReadonlyMap<Entry, string>,
  nodeOf: (e: Entry) => string,
  resolve: (p: string) => string | undefined,
): Map<Entry, string> {
  // Parent of every node once the plan is applied: live parents, overridden by what the planned manifests write.
  const parent = new Map<string, string | null>();
  for (const o of s.live) parent.set(o.id, o.fields.parent);
  for (const e of s.desired) {
    if (blocked.has(e)) continue;
    const p = s.parentOf(e);
    if (p === null) parent.set(nodeOf(e), null);
    else if (typeof p === 'string') parent.set(nodeOf(e), resolve(p) ?? null);
    else if (!s.matched.has(e)) parent.set(nodeOf(e), null); // created at the top level
  }
  const out = new Map<Entry, string>();
  for (const e of s.desired) {
    const p = s.parentOf(e);
    if (blocked.has(e) || typeof p !== 'string') continue;
    const self = nodeOf(e);
    const seen = new Set<string>();
    for (let x = parent.get(self) ?? null; x !== null && !seen.has(x); x = parent.get(x) ?? null) {
      if (x === self) {
        out.set(
          e,
          `parent collection "${p}" is collection "${e.key}" itself or inside it (through live or manifest parents); a collection cannot be nested in itself`,
        );
        break;
      }
      seen.add(x);
    }
  }
  return out;
}
