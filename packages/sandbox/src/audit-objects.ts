/**
 * What an audit event names for a changed row of the sandbox's store: the organization it happened in and the
 * object it is about — the object a client addresses at the top of a path (a member, a team, a space, a site …,
 * src/audit/targets.ts), with the part of it that changed (`member` of a team, `section` of a site, `permission`
 * of a space). Rows of an object's parts (a team membership, a site section, a content grant) name their object;
 * rows that are no object's (users) name none.
 */
import type { CollectionRec, MemberRec, OrgRec, SpaceRec, TeamMemberRec, TeamRec, TranslationRec } from './records.js';
import { collections, orgs, spaces, teams, users } from './records.js';
import type { GrantRec } from './permission-records.js';
import type { OpenApiSpecRec, OpenApiVersionRec } from './openapi-records.js';
import { openApiSpecs } from './openapi-records.js';
import type { GroupRec, SectionRec, ShareLinkRec, SiteRec, SiteSpaceRec } from './site-records.js';
import { sites } from './site-records.js';
import type { ExternalLinkRec } from './site-external-links.js';
import type { RedirectRec } from './site-redirect-records.js';
import type { SamlProviderRec } from './sso-records.js';
import type { SandboxStore } from './store.js';

export interface AuditedObject {
  orgId: string;
  type: string;
  id: string;
  /** The part of the object the row is, singular (`member`, `section`, `permission`); absent: the object itself. */
  part?: string;
  label?: string;
  /** The row is the object itself and is soft-deleted (a space in the bin): its change is a delete or a restore. */
  binned?: boolean;
}

/** Looks a row up in the store, or among the rows this write changed as they were before it (a cascade's parent). */
export type Lookup = <T extends { id: string }>(table: string, id: string) => T | undefined;

type Mapper = (row: never, find: Lookup) => AuditedObject | undefined;

const titled = (orgId: string, type: string, r: { id: string; title: string }): AuditedObject => ({
  orgId,
  type,
  id: r.id,
  label: r.title,
});

function siteOf(find: Lookup, siteId: string, part: string): AuditedObject | undefined {
  const site = find<SiteRec>('sites', siteId);
  return site ? { orgId: site.orgId, type: 'site', id: site.id, part, label: site.title } : undefined;
}

function grantTarget(find: Lookup, g: GrantRec): AuditedObject {
  const table = g.targetType === 'space' ? 'spaces' : g.targetType === 'collection' ? 'collections' : 'sites';
  const label = find<{ id: string; title: string }>(table, g.targetId)?.title;
  return {
    orgId: g.orgId,
    type: g.targetType,
    id: g.targetId,
    part: 'permission',
    ...(label !== undefined ? { label } : {}),
  };
}

/** By table name; a table not listed here holds no organization's objects (users) and records nothing. */
const MAPPERS: Record<string, Mapper> = {
  orgs: (r: OrgRec) => titled(r.id, 'organization', r),
  members: (r: MemberRec, find) => {
    const email = find<{ id: string; email: string }>('users', r.userId)?.email;
    return { orgId: r.orgId, type: 'member', id: r.userId, ...(email !== undefined ? { label: email } : {}) };
  },
  teams: (r: TeamRec) => titled(r.orgId, 'team', r),
  teamMembers: (r: TeamMemberRec, find) => {
    const team = find<TeamRec>('teams', r.teamId);
    return { orgId: r.orgId, type: 'team', id: r.teamId, part: 'member', ...(team ? { label: team.title } : {}) };
  },
  translations: (r: TranslationRec) => titled(r.orgId, 'translation', r),
  collections: (r: CollectionRec) => titled(r.orgId, 'collection', r),
  spaces: (r: SpaceRec) => ({ ...titled(r.orgId, 'space', r), binned: r.deletedAt !== undefined }),
  // The order of a container's content: a part of the collection (or, at the top level, the organization).
  contentOrder: (r: { id: string }, find) => {
    if (r.id.startsWith('org:'))
      return { orgId: r.id.slice(4), type: 'organization', id: r.id.slice(4), part: 'content' };
    const c = find<CollectionRec>('collections', r.id);
    return c ? { orgId: c.orgId, type: 'collection', id: c.id, part: 'content', label: c.title } : undefined;
  },
  contentGrants: (r: GrantRec, find) => grantTarget(find, r),
  sites: (r: SiteRec) => titled(r.orgId, 'site', r),
  siteSections: (r: SectionRec, find) => siteOf(find, r.siteId, 'section'),
  siteSectionGroups: (r: GroupRec, find) => siteOf(find, r.siteId, 'section-group'),
  siteSpaces: (r: SiteSpaceRec, find) => siteOf(find, r.siteId, 'site-space'),
  siteShareLinks: (r: ShareLinkRec, find) => siteOf(find, r.siteId, 'share-link'),
  siteCustomizations: (r: { id: string }, find) => siteOf(find, r.id, 'customization'),
  // Issue 29: a site's redirect rules, external links and visitor sign-in settings (keyed by the site's id).
  siteRedirects: (r: RedirectRec, find) => siteOf(find, r.siteId, 'redirect'),
  siteExternalLinks: (r: ExternalLinkRec, find) => siteOf(find, r.siteId, 'external-link'),
  sitePublishingAuth: (r: { id: string }, find) => siteOf(find, r.id, 'publishing'),
  samlProviders: (r: SamlProviderRec) => ({ orgId: r.orgId, type: 'saml', id: r.id, label: r.label }),
  // OpenAPI specs are addressed by their slug (…/openapi/{specSlug}).
  openApiSpecs: (r: OpenApiSpecRec) => ({ orgId: r.orgId, type: 'openapi', id: r.slug, label: r.slug }),
  openApiVersions: (r: OpenApiVersionRec, find) => {
    const spec = find<OpenApiSpecRec>('openApiSpecs', r.specId);
    return spec ? { orgId: spec.orgId, type: 'openapi', id: spec.slug, part: 'version', label: spec.slug } : undefined;
  },
};

/** The object a row of `table` is (or is a part of); undefined for rows of no organization. */
export function auditedObject(table: string, row: { id: string }, find: Lookup): AuditedObject | undefined {
  const map = MAPPERS[table];
  return map ? map(row as never, find) : undefined;
}

/** A lookup in the store as it is now, falling back to the rows as they were before the write (`before`). */
export function lookupIn(store: SandboxStore, before: ReadonlyMap<string, { id: string }>): Lookup {
  const tables: Record<string, (s: SandboxStore) => { get(id: string): { id: string } | undefined }> = {
    sites,
    teams,
    users,
    collections,
    spaces,
    orgs,
    openApiSpecs,
  };
  return <T extends { id: string }>(table: string, id: string): T | undefined =>
    (tables[table]?.(store).get(id) ?? before.get(`${table}\u0000${id}`)) as T | undefined;
}
