/** Site spaces: list in navigation order (filter `default`), add, patch, delete, move (deprecated but listed). */
import { param } from '../context.js';
import { badRequest, created, noContent, ok, resetContent } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryBoolean } from '../query.js';
import type { SiteSpaceRec } from '../site-records.js';
import { siteSections, siteSpaces } from '../site-records.js';
import { addSiteSpace, checkSiteSpacePath, deleteSiteSpace, isDefaultSiteSpace, moveSiteSpace, siteSpacesInOrder } from '../site-structure.js';
import { nullable, object, string } from '../validate.js';
import type { RouteModule } from './common.js';
import { SITE, condition, findChild, movePosition, pointerOf, requireBodySpace, requireSite, requireSiteSpace, siteSpacePath } from './site-common.js';
import { presentSiteSpace } from './site-present.js';

const SITE_SPACES = `${SITE}/site-spaces`;
const SITE_SPACE = `${SITE_SPACES}/:siteSpaceId`;

const addBody = object({ spaceId: string({ min: 1 }), sectionId: string({ min: 1 }) }, ['spaceId']);
const patchBody = object({ path: siteSpacePath, condition: nullable(condition), spaceId: string({ min: 1 }) });
const moveBody = movePosition(pointerOf(['site-space'], 'siteSpace'), (p) => p.siteSpace, 'siteSpace');

export const siteSpaceRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: SITE_SPACES,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const wantDefault = queryBoolean(ctx.query, 'default');
      let list = siteSpacesInOrder(ctx.store, site);
      if (wantDefault !== undefined) list = list.filter((ss) => isDefaultSiteSpace(ctx.store, site, ss) === wantDefault);
      return pageOf(ctx, list, (ss) => presentSiteSpace(ctx, site, ss));
    },
  });
  router.add({
    method: 'POST',
    pattern: SITE_SPACES,
    body: addBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const space = requireBodySpace(ctx, site, b.spaceId, 'body.spaceId');
      let section;
      if (b.sectionId !== undefined) {
        section = siteSections(ctx.store).get(b.sectionId);
        if (section?.siteId !== site.id) throw badRequest(`body.sectionId: section "${b.sectionId}" not found in site "${site.id}"`);
      }
      const ss = addSiteSpace(ctx.store, site, space.id, space.title, section);
      const location = ctx.apiUrl(`/orgs/${site.orgId}/sites/${site.id}/site-spaces/${ss.id}`);
      return { ...created(presentSiteSpace(ctx, site, ss)), headers: { location } };
    },
  });
  router.add({
    method: 'PATCH',
    pattern: SITE_SPACE,
    body: patchBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const ss = requireSiteSpace(ctx, site);
      if (b.path !== undefined) checkSiteSpacePath(ctx.store, site, ss, b.path);
      if (b.spaceId !== undefined) requireBodySpace(ctx, site, b.spaceId, 'body.spaceId');
      const next: SiteSpaceRec = { ...ss };
      if (b.path !== undefined) next.path = b.path;
      if (b.spaceId !== undefined) next.spaceId = b.spaceId;
      if (b.condition === null) delete next.condition;
      else if (b.condition !== undefined) next.condition = b.condition;
      siteSpaces(ctx.store).put(next);
      return ok(presentSiteSpace(ctx, site, next));
    },
  });
  router.add({
    method: 'DELETE',
    pattern: SITE_SPACE,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const ss = findChild(site, siteSpaces(ctx.store).get(param(ctx, 'siteSpaceId')));
      if (!ss) return noContent();
      deleteSiteSpace(ctx.store, site, ss);
      return resetContent();
    },
  });
  router.add({
    method: 'POST',
    pattern: `${SITE_SPACE}/move`,
    body: moveBody,
    handler: (ctx, pos) => {
      const site = requireSite(ctx);
      const moved = moveSiteSpace(ctx.store, site, requireSiteSpace(ctx, site), pos);
      return ok(presentSiteSpace(ctx, site, moved));
    },
  });
};
