/**
 * Live objects no manifest matched: their unique keys, and what a kind's diff makes of them — unmanaged entries,
 * or prune-phase delete steps when the kind prunes.
 */
import type { DiffResult, LiveObject } from '../model/kind.js';
import type { CascadeObject } from '../model/plan.js';
import { makeStep, stepId } from './common.js';

/**
 * Keys for live objects no manifest mentions: `keyOf(o)`, made unique with the id when two of `objects` share
 * it (so step ids of prune steps stay unique).
 */
export function uniqueKeys<T extends { id: string }>(objects: readonly T[], keyOf: (o: T) => string): (o: T) => string {
  const keys = new Map<T, string>(objects.map((o) => [o, keyOf(o)]));
  const count = new Map<string, number>();
  for (const k of keys.values()) count.set(k, (count.get(k) ?? 0) + 1);
  return (o) => {
    const k = keys.get(o) ?? keyOf(o);
    return (count.get(k) ?? 0) > 1 ? `${k} (${o.id})` : k;
  };
}

/** `uniqueKeys` of live objects by their key. */
export function uniqueLiveKey<O extends LiveObject>(objects: readonly O[]): (o: O) => string {
  return uniqueKeys(objects, (o) => o.key);
}

/** How a kind treats the live objects no manifest matched (see `unmatchedLive`). */
export interface UnmatchedLive<T extends { id: string }> {
  kind: string;
  org: string;
  /** ctx.prune(kind, org), or the owning kind's setting for objects inside another (site children). */
  prune: boolean;
  objects: readonly T[];
  /** Key of the unmanaged entry and of the delete step (unique among `objects`). */
  key: (o: T) => string;
  wave: (o: T) => number;
  /** Path of the DELETE request. */
  path: (o: T) => string;
  before: (o: T) => Record<string, unknown>;
  /** Shown with each delete step (a function: per object, undefined for none). */
  note?: string | ((o: T) => string | undefined);
  /** What deleting `o` takes with it (see Step.cascades); none when absent or empty. */
  cascades?: (o: T) => CascadeObject[];
  /** Steps that must succeed before `o` is deleted (e.g. moving a managed object out of it). */
  dependsOn?: (o: T) => string[];
}

/**
 * Live objects no manifest matched: listed as unmanaged, or, when pruning, one prune-phase delete step each
 * (id `…#delete`, one DELETE request), in the order of `objects`.
 */
export function unmatchedLive<T extends { id: string }>(result: DiffResult, u: UnmatchedLive<T>): void {
  for (const o of u.objects) {
    const key = u.key(o);
    if (!u.prune) {
      result.unmanaged.push({ kind: u.kind, org: u.org, key, id: o.id });
      continue;
    }
    const note = typeof u.note === 'function' ? u.note(o) : u.note;
    const step = makeStep({
      id: stepId(u.kind, u.org, key, 'delete'),
      action: 'delete',
      phase: 'prune',
      kind: u.kind,
      org: u.org,
      key,
      wave: u.wave(o),
      before: u.before(o),
      after: null,
      requests: [{ method: 'DELETE', path: u.path(o) }],
      ...(note !== undefined ? { note } : {}),
      ...(u.dependsOn ? { dependsOn: u.dependsOn(o) } : {}),
    });
    const cascades = u.cascades?.(o) ?? [];
    if (cascades.length > 0) step.cascades = cascades;
    result.steps.push(step);
  }
}
