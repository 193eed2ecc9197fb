/**
 * Site share links: list, create, patch (name, active), delete. The secret token is generated here and
 * appears only inside `urls.published`.
 */
import { randomBytes } from 'node:crypto';
import { param } from '../context.js';
import { created, noContent, ok, resetContent } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryString } from '../query.js';
import type { ShareLinkRec } from '../site-records.js';
import { siteShareLinks } from '../site-records.js';
import { boolean, object, string } from '../validate.js';
import type { RouteModule } from './common.js';
import { SITE, findChild, requireShareLink, requireSite } from './site-common.js';
import { presentShareLink } from './site-present.js';

const LINKS = `${SITE}/share-links`;
const LINK = `${LINKS}/:shareLinkId`;

const name = string({ max: 50 });
const createBody = object({ name }, ['name']);
const patchBody = object({ name, active: boolean() });

export const siteShareLinkRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: LINKS,
    handler: (ctx) => {
      const site = requireSite(ctx);
      // The official spec's `search`: a case-insensitive part of the name, or the link's key (its secret).
      const search = queryString(ctx.query, 'search');
      const matches = (l: ShareLinkRec): boolean => !search || l.name.toLowerCase().includes(search.toLowerCase()) || l.secret === search;
      const found = siteShareLinks(ctx.store).where((l) => l.siteId === site.id && matches(l));
      return pageOf(ctx, found, (l) => presentShareLink(ctx, site, l));
    },
  });
  router.add({
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
  });
  router.add({
    method: 'PATCH',
    pattern: LINK,
    body: patchBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const next: ShareLinkRec = { ...requireShareLink(ctx, site) };
      if (b.name !== undefined) next.name = b.name;
      if (b.active !== undefined) next.active = b.active;
      siteShareLinks(ctx.store).put(next);
      return ok(presentShareLink(ctx, site, next));
    },
  });
  router.add({
    method: 'DELETE',
    pattern: LINK,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const link = findChild(site, siteShareLinks(ctx.store).get(param(ctx, 'shareLinkId')));
      if (!link) return noContent();
      siteShareLinks(ctx.store).delete(link.id);
      return resetContent();
    },
  });
};
