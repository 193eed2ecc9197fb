/**
 * Plan-level rules about cascades (Step.cascades): an object a step takes with it is deleted, so it is never
 * listed as "unmanaged (left alone)", whichever kind's diff listed it.
 */
import type { CascadeObject, Step, UnmanagedObject } from './plan.js';

/** Identity of a live object in a plan: by id when known, else by key (within kind and org). */
export function objectIdentity(o: { kind: string; org: string; key: string; id?: string | undefined }): string {
  return o.id !== undefined && o.id !== '' ? `${o.kind}\u0000${o.org}\u0000id:${o.id}` : `${o.kind}\u0000${o.org}\u0000key:${o.key}`;
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
