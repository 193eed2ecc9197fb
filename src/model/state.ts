/**
 * The two states a plan is computed from. Desired state: manifest kind → its entries (all orgs), plus the
 * documents they came from when the loader made it. A document may yield no entry (`members: []`): it still makes its (kind, org) managed — a written empty
 * list is a managed, empty set — and its `prune` still counts.
 */
import type { ManifestDocument } from './document.js';
import type { DesiredEntry, LiveKindState } from './kind.js';

export type DesiredState = ReadonlyMap<string, DesiredEntry[]> & { readonly documents?: readonly ManifestDocument[] };

/** The loader's desired state: the entries by kind and every valid document. */
export function desiredState(
  entries: Map<string, DesiredEntry[]>,
  documents: readonly ManifestDocument[],
): Map<string, DesiredEntry[]> & { readonly documents: readonly ManifestDocument[] } {
  return Object.assign(entries, { documents });
}

/** Live state: `${kind}\u0000${org}` → what that kind fetched. Use liveKey(). */
export type LiveState = Map<string, LiveKindState>;

export const liveKey = (kind: string, org: string): string => `${kind}\u0000${org}`;
