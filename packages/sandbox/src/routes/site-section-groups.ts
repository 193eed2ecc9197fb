/** Site section groups: list, create, patch, delete, add / remove a section, move (deprecated but listed). */
import { param } from '../context.js';
import { created } from '../http.js';
import type { GroupRec } from '../site-records.js';
import { siteSectionGroups } from '../site-records.js';
import {
  addSectionToGroup,
  createGroup,
  deleteGroup,
  groupsInOrder,
  removeSectionFromGroup,
} from '../site-structure.js';
import { moveGroup } from '../site-moves.js';
import { array, boolean, nullable, object, string } from '../validate.js';
import { moveGroupToEnd, reparentGroup } from '../site-groups.js';
import { localized } from '../validate-spec-fields.js';
import { SITE, groupTitle, nullableIcon, requireSite } from './site-common.js';
import {
  addChild,
  changeChild,
  moveChild,
  movePosition,
  pointerOf,
  removeChild,
  requireGroup,
} from './site-children.js';
import { presentGroup } from './site-present.js';
import { listPage, newId, remove, written } from './crud.js';
import { route, type RouteTable } from './table.js';

const GROUPS = `${SITE}/section-groups`;
const GROUP = `${GROUPS}/:siteSectionGroupId`;

/** management-api.md's fields plus the official spec's `parent` (nest in a group), `draft`, `localizedTitle`. */
const createBody = object(
  {
    title: groupTitle,
    icon: nullableIcon,
    sections: array(string({ min: 1 })),
    parent: string({ min: 1 }),
    draft: boolean(),
  },
  ['title'],
);
const patchBody = object({
  title: groupTitle,
  localizedTitle: localized(128),
  icon: nullableIcon,
  draft: boolean(),
  parentSectionGroupId: nullable(string({ min: 1 })),
});
const addBody = object({ sectionId: string({ min: 1 }) }, ['sectionId']);
const moveBody = movePosition(pointerOf(['site-section', 'site-section-group'], 'id'), (p) => p.id, 'id');

export const siteSectionGroupRoutes: RouteTable = {
  listSiteSectionGroups: listPage(GROUPS, (ctx) => {
    const site = requireSite(ctx);
    return [groupsInOrder(ctx.store, site), (g: GroupRec) => presentGroup(ctx, site, g)];
  }),
  addSectionGroupToSite: addChild(
    GROUPS,
    'section-groups',
    createBody,
    (ctx, site, b) => {
      const group: GroupRec = {
        id: newId(ctx, siteSectionGroups(ctx.store), 'grp'),
        siteId: site.id,
        title: b.title,
        ...(b.icon != null ? { icon: b.icon } : {}),
        ...(b.draft !== undefined ? { draft: b.draft } : {}),
        ...(b.parent !== undefined ? { parent: b.parent } : {}),
        sections: [],
      };
      createGroup(ctx.store, site, group, b.sections ?? []);
      return group;
    },
    presentGroup,
  ),
  updateSiteSectionGroupById: changeChild(
    'PATCH',
    GROUP,
    patchBody,
    requireGroup,
    (ctx, site, group, b) => {
      const base =
        b.parentSectionGroupId === undefined ? group : reparentGroup(ctx.store, site, group, b.parentSectionGroupId);
      return siteSectionGroups(ctx.store).put(written(base, b, ['title', 'localizedTitle', 'draft', 'icon'], ['icon']));
    },
    presentGroup,
  ),
  deleteSiteSectionGroupById: removeChild(GROUP, siteSectionGroups, 'siteSectionGroupId', deleteGroup),
  addSectionToSiteSectionGroup: route({
    method: 'POST',
    pattern: `${GROUP}/sections`,
    body: addBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      addSectionToGroup(ctx.store, site, group, b.sectionId);
      return created(presentGroup(ctx, site, group));
    },
  }),
  removeSectionFromSiteSectionGroup: remove(`${GROUP}/sections/:siteSectionId`, (ctx) => {
    const site = requireSite(ctx);
    return removeSectionFromGroup(ctx.store, site, requireGroup(ctx, site), param(ctx, 'siteSectionId'));
  }),
  moveSiteSectionGroup: moveChild(
    GROUP,
    moveBody,
    requireGroup,
    moveGroupToEnd,
    (store, site, group, pos) => moveGroup(store, site, group, pos, pos.pointer.type),
    presentGroup,
  ),
};
