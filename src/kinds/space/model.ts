/**
 * Shapes of the Space kind shared by its manifest side, diff, purge cascades and snapshot, and by the kinds that
 * read spaces (Collection moves them out of a deleted collection and snapshots the ones it takes along).
 */
import type { LiveKindState, LiveObject } from '../../model/kind.js';
import {
  SPACE_ACCESS_KIND,
  type AccessAux,
  type AccessObject,
  type AccessTarget,
  type WithAccessEntries,
} from '../access/model.js';
import type { LiveCollectionRef } from '../parent-refs.js';
import { isRecord, orgPath, seg } from '../common.js';
import type { SpaceManifestSpec } from '../generated/space.js';
import type { SpaceUsage } from '../space-purge.js';

export const SPACE_KIND = 'Space';
/** Below Collection (24, 25): a space's parent exists before the space is created or moved. */
export const SPACE_DEPTH = 26;

/**
 * The spec as written: `parent` is a Collection manifest title or a collection id (null: in no collection); `access`,
 * when written (even empty), the complete list of grants (absent: not managed, not even read).
 */
export type SpaceSpec = WithAccessEntries<SpaceManifestSpec>;

export interface SpaceFields {
  title: string;
  emoji: string;
  editMode: string | null;
  defaultLevel: string | null;
  parent: string | null;
  /** The API's form (user ids); a space that sets none inherits its organization's. */
  mergeRules?: unknown;
}

export type SpaceObject = LiveObject<SpaceFields>;

/** A site space that showed the space when it was deleted (snapshot). */
export interface ShownBy {
  siteId: string;
  siteTitle: string;
  path: string;
}

/** What fetch keeps beside the spaces, and what a journal snapshot keeps (per space id); access lists in AccessAux's fields. */
export interface SpaceAux extends AccessAux {
  /** The organization's collections, when a parent is written (fetch). */
  collections?: LiveCollectionRef[];
  /** Under prune, when a space would be deleted: where spaces are shown (fetch). */
  usage?: SpaceUsage;
  /** Snapshot: the space's visibility. */
  visibility?: Record<string, string>;
  /** Snapshot: the site spaces that showed the space. */
  shownBy?: Record<string, ShownBy[]>;
  /** The organization's members (e-mail → user id), when a document writes merge rules (fetch). */
  members?: Record<string, string>;
}

export type SpaceState = LiveKindState<SpaceObject, SpaceAux>;

/** The Space kind's fetched state: its spaces and the grants of those whose manifest writes `access:`. */
export type SpaceKindState = LiveKindState<SpaceObject | AccessObject, SpaceAux>;

/** Fields compared one to one with the live space. */
export const SPACE_FIELDS = ['title', 'emoji', 'editMode', 'defaultLevel'] as const;

export const orgSpacesPath = (org: string): string => `${orgPath(org)}/spaces`;
export const spacePath = (id: string): string => `/spaces/${seg(id)}`;

export function spaceObject(org: string, s: unknown): SpaceObject | undefined {
  if (!isRecord(s) || typeof s['id'] !== 'string' || typeof s['title'] !== 'string') return undefined;
  const fields: SpaceFields = {
    title: s['title'],
    emoji: typeof s['emoji'] === 'string' ? s['emoji'] : '',
    editMode: typeof s['editMode'] === 'string' ? s['editMode'] : null,
    defaultLevel: typeof s['defaultLevel'] === 'string' ? s['defaultLevel'] : null,
    parent: typeof s['parent'] === 'string' ? s['parent'] : null,
    ...(isRecord(s['mergeRules']) ? { mergeRules: s['mergeRules'] } : {}),
  };
  return { kind: SPACE_KIND, org, key: s['title'], id: s['id'], fields };
}

export const SPACE_ACCESS: AccessTarget = {
  kind: 'Space',
  accessKind: SPACE_ACCESS_KIND,
  base: (_org, id) => `/spaces/${seg(id)}/permissions`,
  nullRole: false,
  wave: SPACE_DEPTH,
  grantWave: SPACE_DEPTH + 1,
};
