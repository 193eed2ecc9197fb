/**
 * Access lists: who holds which role on a space, a collection or a site (the official spec's content
 * permissions, `…/permissions`). Not a kind of its own: the Space, Collection and Site manifests write an
 * `access:` list, and those kinds call into this module to read the live grants of the objects whose list is
 * written, to diff them, to export them and to snapshot them.
 *
 * Shapes shared by the parts of the module, and the three targets (which object, which paths, which roles).
 */
import type { LiveObject } from '../../model/kind.js';
import type { DocPath } from '../../manifests/paths.js';
import { orgPath } from '../common.js';

/** The roles a grant can give (the member role enum). */
export const ACCESS_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

/** A role as written: null only on a site (an override that takes access away). */
export type GrantRole = AccessRole | null;

/** One entry of an `access:` list, as parsed from a schema-valid document. */
export type AccessEntry =
  /** A team: its Team manifest title, its live title or its id, as written. */
  | { principal: 'team'; name: string; role: GrantRole; at: DocPath }
  /** An organization member by e-mail (lower-cased). */
  | { principal: 'user'; name: string; role: GrantRole; at: DocPath };

export type Principal = AccessEntry['principal'];

/** A spec as its schema writes it, with its `access:` list (absent: not managed) as AccessEntry[]. */
export type WithAccessEntries<T> = Omit<T, 'access'> & { access?: AccessEntry[] };

/** One live grant on an object. */
export interface LiveGrant {
  principal: Principal;
  /** Team id or user id. */
  id: string;
  /** Team title, or the user's e-mail lower-cased ('' when the API showed neither). */
  name: string;
  /** As the API answers it: a role of ACCESS_ROLES, null, or a newer API's role kept as it is (never read as another). */
  role: string | null;
}

export interface LiveTeamRef {
  id: string;
  title: string;
}

/**
 * What a kind keeps of access lists beside its objects, in its `aux` (top-level fields, so undo's merge of
 * several snapshots' aux merges them object by object).
 */
export interface AccessAux {
  /** Object id → its grants, for every object whose permission lists were read (empty: read, none). */
  access?: Record<string, LiveGrant[]>;
  /** The organization's teams, when read (an entry names a team; snapshots): to resolve and to name teams. */
  accessTeams?: LiveTeamRef[];
  /** The organization's members, e-mail (lower-cased) → user id, when read (an entry names an e-mail). */
  accessMembers?: Record<string, string>;
}

export const SPACE_ACCESS_KIND = 'SpaceAccess';
export const COLLECTION_ACCESS_KIND = 'CollectionAccess';
export const SITE_ACCESS_KIND = 'SiteAccess';
export const ACCESS_KINDS = [SPACE_ACCESS_KIND, COLLECTION_ACCESS_KIND, SITE_ACCESS_KIND] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

/** A live grant as a live object of its own kind (for the safety gate, the journal and saved-plan digests). */
export interface GrantFields extends LiveGrant {
  /** Id of the object the grant is on. */
  target: string;
}
export type AccessObject = LiveObject<GrantFields, AccessKind>;

export function isAccessObject(o: LiveObject): o is AccessObject {
  return (ACCESS_KINDS as readonly string[]).includes(o.kind);
}

/** The object kinds that have access lists, and how each one's permissions are addressed. */
export interface AccessTarget {
  /** The manifest kind of the object (Space, Collection, Site). */
  kind: string;
  /** The kind of its grants in plans, the gate and the journal. */
  accessKind: AccessKind;
  /** `…/permissions` of the object (id or ref). */
  base(org: string, id: string): string;
  /** Whether null is a role (a site's override without access). */
  nullRole: boolean;
  /** Wave of role changes and removals (the object's depth). */
  wave: number;
  /** Wave of new grants: after the object's create. */
  grantWave: number;
}

/** `team:<title>` / `user:<e-mail>`: how a grant is named inside its object (plans, keys). */
export const principalLabel = (principal: Principal, name: string): string => `${principal}:${name}`;

/** Key of a grant: `<object key>/team:<title>` or `<object key>/user:<e-mail>`. */
export const grantKey = (objectKey: string, principal: Principal, name: string): string =>
  `${objectKey}/${principalLabel(principal, name)}`;

export const teamsListPath = (org: string): string => `${orgPath(org)}/teams`;
export const membersListPath = (org: string): string => `${orgPath(org)}/members`;
