/** Site spaces: list in navigation order (filter `default`), add, patch, delete, move (deprecated but listed). */
import { badRequest, created, ok } from '../http.js';
import { queryBoolean } from '../query.js';
import { siteSections, siteSpaces, type SiteSpaceRec } from '../site-records.js';
import { addSiteSpace, checkSiteSpacePath, deleteSiteSpace, isDefaultSiteSpace, siteSpacesInOrder } from '../site-structure.js';
import { moveSiteSpace } from '../site-moves.js';
import { boolean, nullable, object, string } from '../validate.js';
import { moveSiteSpaceToEnd } from '../site-groups.js';
import {
  SITE, condition, movePosition, newSpaceFor, pointerOf, removeChild, requireBodySpace, requireSite, requireSiteSpace, sectionTitle, siteSpacePath, spaceTemplate,
} from './site-common.js';
import { presentSiteSpace } from './site-present.js';
import { listPage, written } from './crud.js';
import { route, type RouteTable } from './table.js';

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

export const siteSpaceRoutes: RouteTable = {
  listSiteSpaces: listPage(SITE_SPACES, (ctx) => {
    const site = requireSite(ctx);
    const wantDefault = queryBoolean(ctx.query, 'default');
    let found = siteSpacesInOrder(ctx.store, site);
    if (wantDefault !== undefined) found = found.filter((ss) => isDefaultSiteSpace(ctx.store, site, ss) === wantDefault);
    return [found, (ss: SiteSpaceRec) => presentSiteSpace(ctx, site, ss)];
  }),
  addSpaceToSite: route({
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
  }),
  updateSiteSpaceById: route({
    method: 'PATCH',
    pattern: SITE_SPACE,
    body: patchBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const ss = requireSiteSpace(ctx, site);
      if (b.path !== undefined) checkSiteSpacePath(ctx.store, site, ss, b.path);
      if (b.spaceId !== undefined) requireBodySpace(ctx, site, b.spaceId, 'body.spaceId');
      const next = siteSpaces(ctx.store).put(written(ss, b, ['path', 'spaceId', 'condition', 'pageId', 'hidden', 'draft'], ['condition', 'pageId']));
      return ok(presentSiteSpace(ctx, site, next));
    },
  }),
  deleteSiteSpaceById: removeChild(SITE_SPACE, siteSpaces, 'siteSpaceId', deleteSiteSpace),
  moveSiteSpace: route({
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
  }),
};
