/**
 * What a newer API adds to each kind of object (the `evolve=P` habit, evolve.ts): fields the official spec does not
 * have, one object-valued and one scalar, and, where the spec has an enum for a field of the object, a value outside
 * it. The values are plausible for a newer platform (a `billing` member role, an `internal` site visibility, a team
 * `maintainer`, a content level `suggest`, an `aurora` site theme), fixed per object so a seed always gives the same
 * world. Every name here was checked against the spec: none is a property of that object there.
 */
import { TRANSLATION_LANGUAGES } from './records.js';

type Row = { id: string } & Record<string, unknown>;

/** A value outside a spec enum, planted in the row itself (`rowAt`) and answered (and written) at `bodyAt`. */
export interface EvolvedEnum {
  /** Pointer into the stored row (e.g. `/role`, `/settings/styling/theme`). */
  rowAt: string;
  /** Pointer into the API object and into a body that writes it. */
  bodyAt: string;
  value: string;
  /** A value the sandbox's validators take where the body holds `value` (its own write puts `value` back). */
  standIn: string | null;
}

export interface Habit {
  /** The store table of the object. */
  table: string;
  /** How the API names the object in answers (`object` and `id`); absent: it has no such identity (a grant). */
  presented?: (row: Row) => { object: string; id: string };
  /** The API path of the object: its GET and the PATCH or PUT that writes it. */
  path: (row: Row, store: RowLookup) => string | undefined;
  /** Pointer → value: the unknown fields (absent: none). */
  fields?: (row: Row) => Record<string, unknown>;
  /** The enum value (absent: the object has no enum of the spec's, or none the sandbox plants). */
  enumValue?: (row: Row, tokenUser: string) => EvolvedEnum | undefined;
}

export type RowLookup = (table: string, id: string) => Row | undefined;

const str = (row: Row, key: string): string => String(row[key] ?? '');
const orgPath = (row: Row): string => `/v1/orgs/${str(row, 'orgId')}`;
const sitePath = (row: Row, find: RowLookup): string | undefined => {
  const site = find('sites', str(row, 'siteId'));
  return site ? `${orgPath(site)}/sites/${site.id}` : undefined;
};
const top = (field: string, value: string, standIn: string | null): EvolvedEnum => ({
  rowAt: `/${field}`,
  bodyAt: `/${field}`,
  value,
  standIn,
});
const named = (object: string) => (row: Row) => ({ object, id: row.id });

/** A site's customization answers these beside the spec's members (its path is the site's, `…/customization`). */
export const CUSTOMIZATION_FIELDS: Record<string, unknown> = {
  '/search': { mode: 'semantic', suggestions: true },
  '/density': 'compact',
  '/styling/glass': { blur: 12, opacity: 0.8 },
  '/styling/motion': 'reduced',
  // Inside an object docops replaces whole (its shapes are icon or emoji): a member it must keep all the same.
  '/favicon/shape': 'rounded',
};
/** The customization's spec enum with a newer value: `styling.theme`. */
export const CUSTOMIZATION_ENUM: EvolvedEnum = {
  rowAt: '/settings/styling/theme',
  bodyAt: '/styling/theme',
  value: 'aurora',
  standIn: 'clean',
};

export const HABITS: readonly Habit[] = [
  {
    table: 'orgs',
    presented: named('organization'),
    path: (row) => `/v1/orgs/${row.id}`,
    fields: (row) => ({ '/dataResidency': { region: 'eu-west', since: row['createdAt'] }, '/seatLimit': 50 }),
    enumValue: () => top('defaultRole', 'billing', 'read'),
  },
  {
    table: 'members',
    presented: (row) => ({ object: 'member', id: str(row, 'userId') }),
    path: (row) => `${orgPath(row)}/members/${str(row, 'userId')}`,
    fields: (row) => ({ '/seat': { type: 'full', assignedAt: row['joinedAt'] }, '/mfaEnabled': true }),
    // Never the token's own user: docops acts as an administrator.
    enumValue: (row, tokenUser) => (row['userId'] === tokenUser ? undefined : top('role', 'billing', 'read')),
  },
  {
    table: 'teams',
    presented: named('team'),
    path: (row) => `${orgPath(row)}/teams/${row.id}`,
    fields: (row) => ({ '/directorySync': { provider: 'scim', externalId: `grp-${row.id}` }, '/color': '#7c3aed' }),
  },
  {
    table: 'teamMembers',
    path: (row) => `${orgPath(row)}/teams/${str(row, 'teamId')}/members/${str(row, 'userId')}`,
    enumValue: () => ({ rowAt: '/role', bodyAt: '/role', value: 'maintainer', standIn: 'member' }),
  },
  {
    table: 'translations',
    presented: named('translation-settings'),
    path: (row) => `${orgPath(row)}/translations/${row.id}`,
    fields: () => ({ '/glossary': { terms: 12, languages: [TRANSLATION_LANGUAGES[0]] }, '/autoSync': true }),
  },
  {
    table: 'collections',
    presented: named('collection'),
    path: (row) => `/v1/collections/${row.id}`,
    fields: () => ({ '/lifecycle': { stage: 'active', reviewEvery: 'P6M' }, '/sortOrder': 3 }),
    enumValue: () => top('defaultLevel', 'suggest', null),
  },
  {
    table: 'spaces',
    presented: named('space'),
    path: (row) => `/v1/spaces/${row.id}`,
    fields: () => ({ '/lifecycle': { stage: 'active', reviewEvery: 'P3M' }, '/readingTime': 7 }),
    enumValue: () => top('visibility', 'internal', 'private'),
  },
  {
    table: 'sites',
    presented: named('site'),
    path: (row) => `${orgPath(row)}/sites/${row.id}`,
    fields: () => ({ '/assistant': { enabled: true, tone: 'concise' }, '/indexing': 'auto' }),
    enumValue: () => top('visibility', 'internal', 'public'),
  },
  {
    table: 'siteSections',
    presented: named('site-section'),
    path: (row, find) => {
      const site = sitePath(row, find);
      return site && `${site}/sections/${row.id}`;
    },
    fields: () => ({ '/analytics': { views: 42, trend: 'up' }, '/badge': 'new' }),
  },
  {
    table: 'siteShareLinks',
    presented: named('share-link'),
    path: (row, find) => {
      const site = sitePath(row, find);
      return site && `${site}/share-links/${row.id}`;
    },
    fields: () => ({ '/usage': { views: 7, visitors: 3 }, '/expiresAt': null }),
  },
  {
    table: 'samlProviders',
    presented: named('saml-provider'),
    path: (row) => `${orgPath(row)}/saml/${row.id}`,
    fields: () => ({ '/scim': { enabled: false, tokenSet: false }, '/jitProvisioning': true }),
    enumValue: () => top('defaultRole', 'billing', 'read'),
  },
  {
    table: 'openApiSpecs',
    presented: named('openapi-spec'),
    path: (row) => `${orgPath(row)}/openapi/${str(row, 'slug')}`,
    fields: () => ({ '/lint': { errors: 0, warnings: 2 }, '/autoUpdate': 'daily' }),
    enumValue: () => top('visibility', 'internal', 'private'),
  },
  {
    table: 'contentGrants',
    path: (row, find) => {
      const kind = str(row, 'targetType');
      const base =
        kind === 'space'
          ? `/v1/spaces/${str(row, 'targetId')}`
          : kind === 'collection'
            ? `/v1/collections/${str(row, 'targetId')}`
            : sitePath({ id: '', siteId: str(row, 'targetId') }, find);
      return base && `${base}/permissions/${str(row, 'principalType')}s/${str(row, 'principalId')}`;
    },
    // A site's null grant (an override without access) stays null: the newer value is a role.
    enumValue: (row) => (row['role'] === null ? undefined : top('role', 'suggest', 'read')),
  },
];
