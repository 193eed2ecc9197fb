/** Site spaces: list in navigation order (filter `default`), add, patch, delete, move (deprecated but listed). */
import { param } from '../context.js';
import { badRequest, created, noContent, ok, resetContent } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryBoolean } from '../query.js';
import type { SiteSpaceRec } from '../site-records.js';
import { siteSections, siteSpaces } from '../site-records.js';
import { addSiteSpace, checkSiteSpacePath, deleteSiteSpace, isDefaultSiteSpace, siteSpacesInOrder } from '../site-structure.js';
import { moveSiteSpace } from '../site-moves.js';
import { boolean, nullable, object, string } from '../validate.js';
import { moveSiteSpaceToEnd } from '../site-groups.js';
import type { RouteModule } from './common.js';
import {
  SITE, condition, findChild, movePosition, newSpaceFor, pointerOf, requireBodySpace, requireSite, requireSiteSpace, sectionTitle, siteSpacePath, spaceTemplate,
} from './site-common.js';
import { presentSiteSpace } from './site-present.js';

const SITE_SPACES = `${SITE}/site-spaces`;
const SITE_SPACE = `${SITE_SPACES}/:siteSpaceId`;

/**
 * management-api.md's fields plus the official spec's: `spaceId: null` (a new space, from `template` if given,
 * titled `title`), `title` (the site space's own title), `draft`, `pageId` (its home page), `hidden`.
 */
const addBody = object(
  { spaceId: nullable(string({ min: 1 })), sectionId: string({ min: 1 }), title: sectionTitle, draft: boolean(), pageId: nullable(string({ min: 1 })), template: spaceTemplate },
  ['spaceId'],
);
const patchBody = object({ path: siteSpacePath, condition: nullable(condition), spaceId: string({ min: 1 }), pageId: nullable(string({ min: 1 })), hidden: boolean(), draft: boolean() });
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
      if (b.template !== undefined && b.spaceId !== null) throw badRequest('body.template: only with spaceId null (a template fills the new space)');
      let section;
      if (b.sectionId !== undefined) {
        section = siteSections(ctx.store).get(b.sectionId);
        if (section?.siteId !== site.id) throw badRequest(`body.sectionId: section "${b.sectionId}" not found in site "${site.id}"`);
      }
      const space = b.spaceId === null ? newSpaceFor(ctx, site.orgId, b.title ?? 'Untitled') : requireBodySpace(ctx, site, b.spaceId, 'body.spaceId');
      const added = addSiteSpace(ctx.store, site, space.id, b.title ?? space.title, section);
      const ss = siteSpaces(ctx.store).put({
        ...added,
        ...(b.title !== undefined ? { title: b.title } : {}),
        ...(b.draft !== undefined ? { draft: b.draft } : {}),
        ...(typeof b.pageId === 'string' ? { pageId: b.pageId } : {}),
      });
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
      if (b.pageId === null) delete next.pageId;
      else if (b.pageId !== undefined) next.pageId = b.pageId;
      if (b.hidden !== undefined) next.hidden = b.hidden;
      if (b.draft !== undefined) next.draft = b.draft;
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
      const ss = requireSiteSpace(ctx, site);
      if (pos.end) {
        moveSiteSpaceToEnd(ctx.store, site, ss);
        return ok(presentSiteSpace(ctx, site, ss));
      }
      return ok(presentSiteSpace(ctx, site, moveSiteSpace(ctx.store, site, ss, pos)));
    },
  });
};
