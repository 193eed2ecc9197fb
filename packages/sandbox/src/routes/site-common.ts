/** Lookups, URLs and body validators shared by the site resource modules (their children's operations: site-children.ts). */
import type { RequestContext } from '../context.js';
import { badRequest } from '../http.js';
import type { OrgRec, SpaceRec } from '../records.js';
import { orgs, spaces } from '../records.js';
import type { SiteRec } from '../site-records.js';
import { sites } from '../site-records.js';
import { isPlainObject, nullable, object, string } from '../validate.js';
import { requireInOrg } from './common.js';
import { newId } from './crud.js';

export const SITES = '/v1/orgs/:organizationId/sites';
export const SITE = `${SITES}/:siteId`;

export const requireSite = (ctx: RequestContext): SiteRec => requireInOrg(ctx, sites(ctx.store), 'siteId', 'site');

/** A space named in a body: it must be an active space of the site's organization (else 400 naming `path`). */
export function requireBodySpace(ctx: RequestContext, site: SiteRec, id: string, path: string): SpaceRec {
  const space = spaces(ctx.store).get(id);
  if (!space || space.orgId !== site.orgId || space.deletedAt !== undefined)
    throw badRequest(`${path}: space "${id}" not found in organization "${site.orgId}"`);
  return space;
}

/** A new private space of the organization (`spaces: "new"` on a site, `spaceId: null` on a section or site space). */
export function newSpaceFor(ctx: RequestContext, orgId: string, title: string): SpaceRec {
  const id = newId(ctx, spaces(ctx.store), 'sp', 'space');
  const now = ctx.now().toISOString();
  return spaces(ctx.store).put({
    id,
    orgId,
    title: [...title].slice(0, 50).join(''),
    emoji: '',
    visibility: 'private',
    editMode: 'live',
    defaultLevel: null,
    revision: `rev-${id}`,
    createdAt: now,
    updatedAt: now,
  });
}

/** A new section's or site space's `template` fills the new space it makes: refused beside a `spaceId`. */
export function checkTemplate(b: { spaceId: string | null; template?: unknown }): void {
  if (b.template !== undefined && b.spaceId !== null)
    throw badRequest('body.template: only with spaceId null (a template fills the new space)');
}

/** The space a new section or site space shows: `spaceId: null` ⇒ a new space titled `title`, else an active space of the organization. */
export const spaceOfNewChild = (ctx: RequestContext, site: SiteRec, spaceId: string | null, title: string): SpaceRec =>
  spaceId === null ? newSpaceFor(ctx, site.orgId, title) : requireBodySpace(ctx, site, spaceId, 'body.spaceId');

/** The spec's ApplySpaceTemplate `{id, params?}` (with `spaceId: null`): accepted; the sandbox holds no content. */
export const spaceTemplate = object(
  {
    id: string({ min: 1 }),
    params: (v: unknown, path: string) => {
      if (!isPlainObject(v)) throw badRequest(`${path}: must be an object`);
      return v;
    },
  },
  ['id'],
);

export function requireSpaceRecord(ctx: RequestContext, id: string): SpaceRec {
  const space = spaces(ctx.store).get(id);
  if (!space) throw new Error(`store is inconsistent: space ${id} is referenced by a site space but missing`);
  return space;
}

/** Where the site is served: the proxy origin when set, else its hosted URL. */
export function siteUrl(ctx: RequestContext, site: SiteRec): string {
  return site.proxy !== undefined ? `https://${site.proxy}` : hostedSiteUrl(ctx, site);
}

/** The platform-hosted URL (the proxy's target). */
export function hostedSiteUrl(ctx: RequestContext, site: SiteRec): string {
  const org: OrgRec | undefined = orgs(ctx.store).get(site.orgId);
  const host = site.hostname ?? `${org?.hostname ?? site.orgId}.sites.sandbox.test`;
  return `https://${host}/${encodeURIComponent(site.basename ?? site.id)}`;
}

// Field validators with the limits of management-api.md.
export const sectionTitle = string({ min: 2, max: 128 });
export const sectionPath = string({ min: 1, max: 100 });
export const sectionDescription = string({ max: 256 });
export const groupTitle = string({ min: 1, max: 100 });
export const iconName = string({ max: 50 });
export const condition = string({ min: 1, max: 1024 });
export const siteSpacePath = string({ min: 1, max: 100 });
export const nullableIcon = nullable(iconName);
