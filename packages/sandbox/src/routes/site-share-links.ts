/**
 * Site share links: list, create, patch (name, active), delete. The secret token is generated here and
 * appears only inside `urls.published`.
 */
import { randomBytes } from 'node:crypto';
import { created, ok } from '../http.js';
import { queryString } from '../query.js';
import type { ShareLinkRec } from '../site-records.js';
import { siteShareLinks } from '../site-records.js';
import { boolean, object, string } from '../validate.js';
import { SITE, removeChild, requireShareLink, requireSite } from './site-common.js';
import { presentShareLink } from './site-present.js';
import { listPage, written } from './crud.js';
import { route, type RouteTable } from './table.js';

const LINKS = `${SITE}/share-links`;
const LINK = `${LINKS}/:shareLinkId`;

const name = string({ max: 50 });
const createBody = object({ name }, ['name']);
const patchBody = object({ name, active: boolean() });

export const siteShareLinkRoutes: RouteTable = {
  listSiteShareLinks: listPage(LINKS, (ctx) => {
    const site = requireSite(ctx);
    // The official spec's `search`: a case-insensitive part of the name, or the link's key (its secret).
    const search = queryString(ctx.query, 'search');
    const matches = (l: ShareLinkRec): boolean => !search || l.name.toLowerCase().includes(search.toLowerCase()) || l.secret === search;
    return [siteShareLinks(ctx.store).where((l) => l.siteId === site.id && matches(l)), (l: ShareLinkRec) => presentShareLink(ctx, site, l)];
  }),
  createSiteShareLink: route({
    method: 'POST',
    pattern: LINKS,
    body: createBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const link = siteShareLinks(ctx.store).put({
        id: ctx.store.nextId('sl', (x) => siteShareLinks(ctx.store).has(x)),
        siteId: site.id,
        name: b.name,
        active: true,
        secret: randomBytes(18).toString('base64url'),
        createdAt: ctx.now().toISOString(),
      });
      const location = ctx.apiUrl(`/orgs/${site.orgId}/sites/${site.id}/share-links/${link.id}`);
      return { ...created(presentShareLink(ctx, site, link)), headers: { location } };
    },
  }),
  updateSiteShareLinkById: route({
    method: 'PATCH',
    pattern: LINK,
    body: patchBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const next = siteShareLinks(ctx.store).put(written(requireShareLink(ctx, site), b, ['name', 'active']));
      return ok(presentShareLink(ctx, site, next));
    },
  }),
  deleteSiteShareLinkById: removeChild(LINK, siteShareLinks, 'shareLinkId', (store, _site, link) => siteShareLinks(store).delete(link.id)),
};
