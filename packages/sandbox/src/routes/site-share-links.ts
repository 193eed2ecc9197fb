/**
 * Site share links: list, create, patch (name, active), delete. The secret token is generated here and
 * appears only inside `urls.published`.
 */
import { randomBytes } from 'node:crypto';
import { queryString } from '../query.js';
import type { ShareLinkRec } from '../site-records.js';
import { siteShareLinks } from '../site-records.js';
import { boolean, object, string } from '../validate.js';
import { SITE, requireSite } from './site-common.js';
import { addChild, changeChild, removeChild, requireShareLink } from './site-children.js';
import { presentShareLink } from './site-present.js';
import { listPage, newId, written } from './crud.js';
import type { RouteTable } from './table.js';

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
    const matches = (l: ShareLinkRec): boolean =>
      !search || l.name.toLowerCase().includes(search.toLowerCase()) || l.secret === search;
    return [
      siteShareLinks(ctx.store).where((l) => l.siteId === site.id && matches(l)),
      (l: ShareLinkRec) => presentShareLink(ctx, site, l),
    ];
  }),
  createSiteShareLink: addChild(
    LINKS,
    'share-links',
    createBody,
    (ctx, site, b) =>
      siteShareLinks(ctx.store).put({
        id: newId(ctx, siteShareLinks(ctx.store), 'sl'),
        siteId: site.id,
        name: b.name,
        active: true,
        secret: randomBytes(18).toString('base64url'),
        createdAt: ctx.now().toISOString(),
      }),
    presentShareLink,
  ),
  updateSiteShareLinkById: changeChild(
    'PATCH',
    LINK,
    patchBody,
    requireShareLink,
    (ctx, _site, link, b) => siteShareLinks(ctx.store).put(written(link, b, ['name', 'active'])),
    presentShareLink,
  ),
  deleteSiteShareLinkById: removeChild(LINK, siteShareLinks, 'shareLinkId'),
};
