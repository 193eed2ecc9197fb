/**
 * Validation-time reference checks shared by the kinds' crossValidate: what a reference can name among the
 * manifests, and the warning for one that names none. Offline, such a reference is not an error (it may name
 * a live object); planning blocks its document when it names nothing live either.
 */
import type { DesiredEntry, IdentityLookup } from '../model/kind.js';

/**
 * Whether a name is the identity key or the pinned id of one of `kind`'s entries of an organization. Keys come
 * from the loader's identity index; the pinned ids are gathered only when a name is not a key (once per call).
 */
export function namesManifest(
  all: ReadonlyMap<string, DesiredEntry[]>,
  kind: string,
  index: IdentityLookup,
): (org: string, name: string) => boolean {
  let ids: Map<string, Set<string>> | undefined;
  return (org, name) => {
    if (index.keys(kind, org)?.has(name)) return true;
    if (!ids) {
      ids = new Map();
      for (const e of all.get(kind) ?? []) {
        if (e.id === undefined) continue;
        let set = ids.get(e.org);
        if (!set) ids.set(e.org, (set = new Set()));
        set.add(e.id);
      }
    }
    return ids.get(org)?.has(name) === true;
  };
}

/** The warning for a reference (`what "name"`) that names no manifest of `kind`. */
export function mustExistLive(what: string, name: string, kind: string, org: string): string {
  return `${what} "${name}" names no ${kind} manifest of organization ${org}: it must exist live (title or id), else plan blocks this document`;
}
