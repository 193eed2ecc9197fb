/**
 * A kind with access lists keeps its grants beside its own objects, as live objects of their own kind
 * (SpaceAccess, …): the safety gate counts them, the journal finds the one a delete step removes, a saved plan's
 * digest covers them. Its own code reads its objects and its grants apart.
 */
import type { LiveObject } from '../../model/kind.js';
import { isAccessObject, type AccessObject } from './model.js';

export function splitAccess<O extends LiveObject>(
  objects: readonly (O | AccessObject)[],
): { own: O[]; grants: AccessObject[] } {
  const own: O[] = [];
  const grants: AccessObject[] = [];
  for (const o of objects) {
    if (isAccessObject(o)) grants.push(o);
    else own.push(o);
  }
  return { own, grants };
}
