/** Shapes of the Collection kind shared by its manifest side, fetch, diff, prune and snapshot: spec, live object, aux. */
import type { LiveKindState, LiveObject } from '../../model/kind.js';
import {
  COLLECTION_ACCESS_KIND,
  type AccessAux,
  type AccessObject,
  type AccessTarget,
  type WithAccessEntries,
} from '../access/model.js';
import { isRecord, orgPath, seg } from '../common.js';
import type { CollectionManifestSpec } from '../generated/collection.js';
import type { SpaceUsage } from '../space-purge.js';

export const COLLECTION_KIND = 'Collection';
export const COLLECTION_DEPTH = 24;

/**
 * The spec as written: `parent` is a Collection manifest title or a collection id (null: top level); `access`, when
 * written (even empty), the complete list of grants (absent: not managed, not even read).
 */
export type CollectionSpec = WithAccessEntries<CollectionManifestSpec>;

export interface CollectionFields {
  title: string;
  description: string | null;
  defaultLevel: string | null;
  parent: string | null;
}

export type CollectionObject = LiveObject<CollectionFields>;

/** A live space as the collection prune needs it. */
export interface PruneSpace {
  id: string;
  title: string;
  parent: string | null;
}

/** What fetch keeps beside the collections (and a snapshot: the grants of the collections a delete takes, AccessAux's fields). */
export interface CollectionAux extends AccessAux {
  /** The organization's live spaces, read only when a collection would be deleted. */
  spaces?: PruneSpace[];
  /** Where spaces are shown, read only when a collection that would be deleted holds a space. */
  usage?: SpaceUsage;
}

export type CollectionState = LiveKindState<CollectionObject, CollectionAux>;

/** The Collection kind's fetched state: its collections and the grants of those whose manifest writes `access:`. */
export type CollectionKindState = LiveKindState<CollectionObject | AccessObject, CollectionAux>;

/** Fields compared one to one with the live collection. */
export const COLLECTION_FIELDS = ['title', 'description', 'defaultLevel'] as const;

export const collectionsPath = (org: string): string => `${orgPath(org)}/collections`;
export const collectionPath = (id: string): string => `/collections/${seg(id)}`;

export function collectionObject(org: string, c: unknown): CollectionObject | undefined {
  if (!isRecord(c) || typeof c['id'] !== 'string' || typeof c['title'] !== 'string') return undefined;
  const fields: CollectionFields = {
    title: c['title'],
    description: typeof c['description'] === 'string' ? c['description'] : null,
    defaultLevel: typeof c['defaultLevel'] === 'string' ? c['defaultLevel'] : null,
    parent: typeof c['parent'] === 'string' ? c['parent'] : null,
  };
  return { kind: COLLECTION_KIND, org, key: c['title'], id: c['id'], fields };
}

export const COLLECTION_ACCESS: AccessTarget = {
  kind: 'Collection',
  accessKind: COLLECTION_ACCESS_KIND,
  base: (_org, id) => `/collections/${seg(id)}/permissions`,
  nullRole: false,
  wave: COLLECTION_DEPTH,
  // With a nested collection's `#parent` move (both need only the create).
  grantWave: COLLECTION_DEPTH + 1,
};

/** The note of a delete that moves spaces to the bin (a pruned space, the spaces inside a pruned collection). */
export const SOFT_DELETE = 'soft delete: restorable for 7 days';
