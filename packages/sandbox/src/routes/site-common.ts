/** Lookups, URLs and body validators shared by the site resource modules. */
import { param, type RequestContext } from '../context.js';
import { badRequest, notFound } from '../http.js';
import type { OrgRec, SpaceRec } from '../records.js';
import { orgs, spaces } from '../records.js';
import type { GroupRec, SectionRec, ShareLinkRec, SiteRec, SiteSpaceRec } from '../site-records.js';
import { siteSectionGroups, siteSections, siteShareLinks, siteSpaces, sites } from '../site-records.js';
import type { Position } from '../site-structure.js';
import { isPlainObject, literal, nullable, object, oneOf, string, type Validator } from '../validate.js';
import type { RouteDef } from '../router.js';
import type { SandboxStore, Table } from '../store.js';
import { requireOrg } from './common.js';
import { remove } from './crud.js';

export const SITES = '/v1/orgs/:organizationId/sites';
export const SITE = `${SITES}/:siteId`;

export function requireSite(ctx: RequestContext): SiteRec {
  const org = requireOrg(ctx);
  const id = param(ctx, 'siteId');
  const site = sites(ctx.store).get(id);
  if (!site || site.orgId !== org.id) throw notFound(`site "${id}" not found in organization "${org.id}"`);
  return site;
}

/** A child id in the site, or undefined: deletes of absent children answer 204 while the site exists. */
export function findChild<T extends { siteId: string }>(site: SiteRec, found: T | undefined): T | undefined {
  return found && found.siteId === site.id ? found : undefined;
}

type Children<T extends { id: string; siteId: string }> = (store: SandboxStore) => Table<T>;

/** The child of the site that path parameter `idParam` names in `table`, or 404 (the site itself must exist: else 404 too). */
export function requireChild<T extends { id: string; siteId: string }>(ctx: RequestContext, site: SiteRec, table: Children<T>, idParam: string, what: string): T {
  const found = findChild(site, table(ctx.store).get(param(ctx, idParam)));
  if (!found) throw notFound(`${what} "${param(ctx, idParam)}" not found in site "${site.id}"`);
  return found;
}

export const requireSection = (ctx: RequestContext, site: SiteRec): SectionRec => requireChild(ctx, site, siteSections, 'siteSectionId', 'section');
export const requireGroup = (ctx: RequestContext, site: SiteRec): GroupRec => requireChild(ctx, site, siteSectionGroups, 'siteSectionGroupId', 'section group');
export const requireSiteSpace = (ctx: RequestContext, site: SiteRec): SiteSpaceRec => requireChild(ctx, site, siteSpaces, 'siteSpaceId', 'site space');
export const requireShareLink = (ctx: RequestContext, site: SiteRec): ShareLinkRec => requireChild(ctx, site, siteShareLinks, 'shareLinkId', 'share link');

/** DELETE of a site's child: `drop` deletes it (205); one the site does not have ⇒ 204 (the site must exist). */
export function removeChild<T extends { id: string; siteId: string }>(
  pattern: string,
  table: Children<T>,
  idParam: string,
  drop: (store: SandboxStore, site: SiteRec, row: T) => void = (store, _site, row) => void table(store).delete(row.id),
): RouteDef {
  return remove(pattern, (ctx) => {
    const site = requireSite(ctx);
    const row = findChild(site, table(ctx.store).get(param(ctx, idParam)));
    if (row) drop(ctx.store, site, row);
    return row !== undefined;
  });
}

/** A space named in a body: it must be an active space of the site's organization (else 400 naming `path`). */
export function requireBodySpace(ctx: RequestContext, site: SiteRec, id: string, path: string): SpaceRec {
  const space = spaces(ctx.store).get(id);
  if (!space || space.orgId !== site.orgId || space.deletedAt !== undefined)
    throw badRequest(`${path}: space "${id}" not found in organization "${site.orgId}"`);
  return space;
}

/** A new private space of the organization (`spaces: "new"` on a site, `spaceId: null` on a section or site space). */
export function newSpaceFor(ctx: RequestContext, orgId: string, title: string): SpaceRec {
  const id = ctx.store.nextId('sp', (x) => spaces(ctx.store).has(x) || ctx.store.isBuried('space', x));
  const now = ctx.now().toISOString();
  return spaces(ctx.store).put({
    id, orgId, title: [...title].slice(0, 50).join(''), emoji: '', visibility: 'private', editMode: 'live',
    defaultLevel: null, revision: `rev-${id}`, createdAt: now, updatedAt: now,
  });
}

/** The spec's ApplySpaceTemplate `{id, params?}` (with `spaceId: null`): accepted; the sandbox holds no content. */
export const spaceTemplate = object({ id: string({ min: 1 }), params: (v: unknown, path: string) => {
  if (!isPlainObject(v)) throw badRequest(`${path}: must be an object`);
  return v;
} }, ['id']);

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

/** A deprecated `/move` body: next to a reference, or (no `position`, or an empty one) to the end. */
export type MoveTo<P> = (Position & { end?: undefined; pointer: P }) | { end: true };

/**
 * `{position?: {before?: P, after?: P}}` with at most one of before/after; P checked by `pointer`. Without a
 * reference the item goes to the end (the official spec makes `position` optional; management-api.md lists it).
 */
export function movePosition<P>(pointer: Validator<P>, refOf: (p: P) => string, refField: string): Validator<MoveTo<P>> {
  const shape = object({ position: object({ before: pointer, after: pointer }) });
  return (v, path) => {
    const { position } = shape(v, path);
    if (position === undefined || (position.before === undefined && position.after === undefined)) return { end: true };
    const where = position.before !== undefined ? 'before' : 'after';
    const p = position[where];
    if ((position.before !== undefined && position.after !== undefined) || p === undefined)
      throw badRequest(`${path}.position: must have at most one of before, after`);
    return { where, ref: refOf(p), path: `${path}.position.${where}.${refField}`, pointer: p };
  };
}

export const pointerOf = <const K extends string, const T extends string>(types: readonly T[], key: K): Validator<{ type: T } & Record<K, string>> =>
  // eslint-disable-next-line no-restricted-syntax -- a computed key's type is lost in the object literal; the validator checks it
  object({ type: types.length === 1 ? literal(types[0] as T) : oneOf(types), [key]: string({ min: 1 }) } as const, ['type', key]) as unknown as Validator<
    { type: T } & Record<K, string>
  >;
