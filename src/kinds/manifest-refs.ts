/**
 * Validation-time reference checks shared by the kinds' crossValidate: what a reference can name among the
 * manifests, and the warning for one that names none. Offline, such a reference is not an error (it may name
 * a live object); planning blocks its document when it names nothing live either.
 */
import type { DesiredEntry } from '../core/kind.js';

/** Per organization, the identity keys and pinned ids of one kind's entries (each org's set built once, on first ask). */
export function manifestNames(all: ReadonlyMap<string, DesiredEntry[]>, kind: string): (org: string) => ReadonlySet<string> {
  let byOrg: Map<string, Set<string>> | undefined;
  return (org) => {
    if (!byOrg) {
      byOrg = new Map();
      for (const e of all.get(kind) ?? []) {
        let names = byOrg.get(e.org);
        if (!names) byOrg.set(e.org, (names = new Set()));
        names.add(e.key);
        if (e.id !== undefined) names.add(e.id);
      }
    }
    return byOrg.get(org) ?? new Set();
  };
}

/** The warning for a reference (`what "name"`) that names no manifest of `kind`. */
export function mustExistLive(what: string, name: string, kind: string, org: string): string {
  return `${what} "${name}" names no ${kind} manifest of organization ${org}: it must exist live (title or id), else plan blocks this document`;
}
