/**
 * The official spec's site structure operations: `GET …/structure` (getSiteStructure: the top level of a site
 * with sections, or its root site spaces) and `PATCH …/structure/sort` (sortSiteStructure: reorder one item among
 * its siblings, packages/sandbox/src/site-sort.ts). `Prefer: return=minimal` is ignored like everywhere: the sort answers
 * 200 with the moved item.
 */
import { badRequest, ok } from '../http.js';
import { STRUCTURE_ITEM_TYPES, sortStructureItem, type StructurePointer, type StructureSort } from '../site-sort.js';
import { hasSections, siteSpacesOf } from '../site-structure.js';
import { object, oneOf, string, type Validator } from '../validate.js';
import { SITE, requireSite } from './site-common.js';
import {
  presentExternalLink,
  presentGroup,
  presentSection,
  presentSiteSpace,
  presentTopLevel,
} from './site-present.js';
import { route, type RouteTable } from './table.js';

const pointer: Validator<StructurePointer> = object({ type: oneOf(STRUCTURE_ITEM_TYPES), id: string({ min: 1 }) }, [
  'type',
  'id',
]);
const shape = object({ item: pointer, position: object({ before: pointer, after: pointer }) }, ['item', 'position']);

/** `{item, position: {before?, after?}}`: at most one of before/after; neither ⇒ last among the siblings. */
const sortBody: Validator<StructureSort> = (v, path) => {
  const { item, position } = shape(v, path);
  if (position.before !== undefined && position.after !== undefined)
    throw badRequest(`${path}.position: must have at most one of before, after`);
  if (position.before !== undefined) return { item, where: 'before', ref: position.before };
  if (position.after !== undefined) return { item, where: 'after', ref: position.after };
  return { item };
};

export const siteSortRoutes: RouteTable = {
  getSiteStructure: route({
    method: 'GET',
    pattern: `${SITE}/structure`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      if (!hasSections(site))
        return ok({
          type: 'siteSpaces',
          structure: siteSpacesOf(ctx.store, site.rootSpaces).map((ss) => presentSiteSpace(ctx, site, ss)),
        });
      return ok({ type: 'sections', structure: presentTopLevel(ctx, site) });
    },
  }),
  sortSiteStructure: route({
    method: 'PATCH',
    pattern: `${SITE}/structure/sort`,
    body: sortBody,
    handler: (ctx, sort) => {
      const site = requireSite(ctx);
      const moved = sortStructureItem(ctx.store, site, sort);
      if (moved.type === 'site-space') return ok(presentSiteSpace(ctx, site, moved.record));
      if (moved.type === 'site-section') return ok(presentSection(ctx, site, moved.record, moved.group?.id));
      if (moved.type === 'site-external-link') return ok(presentExternalLink(moved.record));
      return ok(presentGroup(ctx, site, moved.record));
    },
  }),
};
