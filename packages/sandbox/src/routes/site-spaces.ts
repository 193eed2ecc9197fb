/** Site spaces: list in navigation order (filter `default`), add, patch, delete, move (deprecated but listed). */
import { queryBoolean } from '../query.js';
import { siteSections, siteSpaces, type SiteSpaceRec } from '../site-records.js';
import {
  addSiteSpace,
  checkSiteSpacePath,
  deleteSiteSpace,
  isDefaultSiteSpace,
  siteSpacesInOrder,
} from '../site-structure.js';
import { moveSiteSpace } from '../site-moves.js';
import { boolean, nullable, object, string } from '../validate.js';
import { moveSiteSpaceToEnd } from '../site-groups.js';
import {
  SITE,
  checkTemplate,
  condition,
  requireBodySpace,
  requireSite,
  sectionTitle,
  siteSpacePath,
  spaceOfNewChild,
  spaceTemplate,
} from './site-common.js';
import {
  addChild,
  bodyChild,
  changeChild,
  moveChild,
  movePosition,
  pointerOf,
  removeChild,
  requireSiteSpace,
} from './site-children.js';
import { presentSiteSpace } from './site-present.js';
import { listPage, written } from './crud.js';
import type { RouteTable } from './table.js';

const SITE_SPACES = `${SITE}/site-spaces`;
const SITE_SPACE = `${SITE_SPACES}/:siteSpaceId`;

/**
 * management-api.md's fields plus the official spec's: `spaceId: null` (a new space, from `template` if given,
 * titled `title`), `title` (the site space's own title), `draft`, `pageId` (its home page), `hidden`.
 */
const addBody = object(
  {
    spaceId: nullable(string({ min: 1 })),
    sectionId: string({ min: 1 }),
    title: sectionTitle,
    draft: boolean(),
    pageId: nullable(string({ min: 1 })),
    template: spaceTemplate,
  },
  ['spaceId'],
);
const patchBody = object({
  path: siteSpacePath,
  condition: nullable(condition),
  spaceId: string({ min: 1 }),
  pageId: nullable(string({ min: 1 })),
  hidden: boolean(),
  draft: boolean(),
});
const moveBody = movePosition(pointerOf(['site-space'], 'siteSpace'), (p) => p.siteSpace, 'siteSpace');

export const siteSpaceRoutes: RouteTable = {
  listSiteSpaces: listPage(SITE_SPACES, (ctx) => {
    const site = requireSite(ctx);
    const wantDefault = queryBoolean(ctx.query, 'default');
    let found = siteSpacesInOrder(ctx.store, site);
    if (wantDefault !== undefined)
      found = found.filter((ss) => isDefaultSiteSpace(ctx.store, site, ss) === wantDefault);
    return [found, (ss: SiteSpaceRec) => presentSiteSpace(ctx, site, ss)];
  }),
  addSpaceToSite: addChild(
    SITE_SPACES,
    'site-spaces',
    addBody,
    (ctx, site, b) => {
      checkTemplate(b);
      const section = bodyChild(ctx, site, siteSections, b.sectionId, 'body.sectionId', 'section');
      const space = spaceOfNewChild(ctx, site, b.spaceId, b.title ?? 'Untitled');
      const added = addSiteSpace(ctx.store, site, space.id, b.title ?? space.title, section);
      return siteSpaces(ctx.store).put({
        ...added,
        ...(b.title !== undefined ? { title: b.title } : {}),
        ...(b.draft !== undefined ? { draft: b.draft } : {}),
        ...(typeof b.pageId === 'string' ? { pageId: b.pageId } : {}),
      });
    },
    presentSiteSpace,
  ),
  updateSiteSpaceById: changeChild(
    'PATCH',
    SITE_SPACE,
    patchBody,
    requireSiteSpace,
    (ctx, site, ss, b) => {
      if (b.path !== undefined) checkSiteSpacePath(ctx.store, site, ss, b.path);
      if (b.spaceId !== undefined) requireBodySpace(ctx, site, b.spaceId, 'body.spaceId');
      return siteSpaces(ctx.store).put(
        written(ss, b, ['path', 'spaceId', 'condition', 'pageId', 'hidden', 'draft'], ['condition', 'pageId']),
      );
    },
    presentSiteSpace,
  ),
  deleteSiteSpaceById: removeChild(SITE_SPACE, siteSpaces, 'siteSpaceId', deleteSiteSpace),
  moveSiteSpace: moveChild(SITE_SPACE, moveBody, requireSiteSpace, moveSiteSpaceToEnd, moveSiteSpace, presentSiteSpace),
};
