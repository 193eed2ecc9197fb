/**
 * Plan-level rules about cascades (Step.cascades), applied to the ordered plan whatever kinds listed them:
 * - each object is listed once: under its own delete step when it has one, else under the first step (in plan
 *   order) that takes it — kinds may list what another kind's step deletes too, without double counting;
 * - an object a step takes with it is deleted, so it is never listed as "unmanaged (left alone)".
 */
import { pathSegments, type CascadeObject, type Step, type UnmanagedObject } from '../model/plan.js';

/** Identity of a live object in a plan: by id when known, else by key (within kind and org). */
export function objectIdentity(o: { kind: string; org: string; key: string; id?: string | undefined }): string {
  return o.id !== undefined && o.id !== ''
    ? `${o.kind}\u0000${o.org}\u0000id:${o.id}`
    : `${o.kind}\u0000${o.org}\u0000key:${o.key}`;
}

/** Every cascade object of the plan's steps, in step order. */
export function cascadesOf(steps: readonly Step[]): CascadeObject[] {
  return steps.flatMap((s) => s.cascades ?? []);
}

/**
 * The unmanaged entries no step's cascade takes. Objects are compared by id where both sides have one (two
 * spaces may share a title), else by key.
 */
export function withoutCascaded(unmanaged: readonly UnmanagedObject[], steps: readonly Step[]): UnmanagedObject[] {
  const cascades = cascadesOf(steps);
  if (cascades.length === 0) return [...unmanaged];
  const byId = new Set<string>();
  const byKeyWithoutId = new Set<string>();
  const byKey = new Set<string>();
  for (const c of cascades) {
    const key = objectIdentity({ kind: c.kind, org: c.org, key: c.key });
    byKey.add(key);
    if (c.id !== undefined && c.id !== '') byId.add(objectIdentity(c));
    else byKeyWithoutId.add(key);
  }
  return unmanaged.filter((u) => {
    const key = objectIdentity({ kind: u.kind, org: u.org, key: u.key });
    if (u.id !== undefined && u.id !== '') return !byId.has(objectIdentity(u)) && !byKeyWithoutId.has(key);
    return !byKey.has(key);
  });
}

/**
 * Each cascaded object once, in the ordered steps: dropped where a delete step of its own kind and org deletes it
 * (its id in that step's DELETE path, or its key when it has no id), and after its first listing. Returns new step
 * objects only where cascades change.
 */
export function dedupeCascades(steps: readonly Step[]): Step[] {
  if (!steps.some((s) => s.cascades !== undefined)) return [...steps];
  const own = new Set<string>();
  for (const s of steps) {
    if (s.action !== 'delete') continue;
    own.add(objectIdentity({ kind: s.kind, org: s.org, key: s.key }));
    for (const id of pathSegments(s, ['DELETE'])) own.add(objectIdentity({ kind: s.kind, org: s.org, key: '', id }));
  }
  const listed = new Set<string>();
  return steps.map((s) => {
    if (!s.cascades) return s;
    const kept = s.cascades.filter((c) => {
      const identity = objectIdentity(c);
      const hasId = c.id !== undefined && c.id !== '';
      if (own.has(identity) || (!hasId && own.has(objectIdentity({ kind: c.kind, org: c.org, key: c.key }))))
        return false;
      if (listed.has(identity)) return false;
      listed.add(identity);
      return true;
    });
    if (kept.length === s.cascades.length) return s;
    const { cascades: _all, ...rest } = s;
    return kept.length > 0 ? { ...rest, cascades: kept } : rest;
  });
}
