/** Site section groups: list, create, patch, delete, add / remove a section, move (deprecated but listed). */
import { param } from '../context.js';
import { created, noContent, ok, resetContent } from '../http.js';
import type { GroupRec } from '../site-records.js';
import { siteSectionGroups } from '../site-records.js';
import { addSectionToGroup, createGroup, deleteGroup, groupsInOrder, removeSectionFromGroup } from '../site-structure.js';
import { moveGroup } from '../site-moves.js';
import { array, boolean, nullable, object, string } from '../validate.js';
import { moveGroupToEnd, reparentGroup } from '../site-groups.js';
import { localized } from '../validate-spec-fields.js';
import { SITE, groupTitle, movePosition, nullableIcon, pointerOf, removeChild, requireGroup, requireSite } from './site-common.js';
import { presentGroup } from './site-present.js';
import { listPage, written } from './crud.js';
import { route, type RouteTable } from './table.js';

const GROUPS = `${SITE}/section-groups`;
const GROUP = `${GROUPS}/:siteSectionGroupId`;

/** management-api.md's fields plus the official spec's `parent` (nest in a group), `draft`, `localizedTitle`. */
const createBody = object({ title: groupTitle, icon: nullableIcon, sections: array(string({ min: 1 })), parent: string({ min: 1 }), draft: boolean() }, ['title']);
const patchBody = object({ title: groupTitle, localizedTitle: localized(128), icon: nullableIcon, draft: boolean(), parentSectionGroupId: nullable(string({ min: 1 })) });
const addBody = object({ sectionId: string({ min: 1 }) }, ['sectionId']);
const moveBody = movePosition(pointerOf(['site-section', 'site-section-group'], 'id'), (p) => p.id, 'id');

export const siteSectionGroupRoutes: RouteTable = {
  listSiteSectionGroups: listPage(GROUPS, (ctx) => {
    const site = requireSite(ctx);
    return [groupsInOrder(ctx.store, site), (g: GroupRec) => presentGroup(ctx, site, g)];
  }),
  addSectionGroupToSite: route({
    method: 'POST',
    pattern: GROUPS,
    body: createBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const group: GroupRec = {
        id: ctx.store.nextId('grp', (x) => siteSectionGroups(ctx.store).has(x)),
        siteId: site.id,
        title: b.title,
        ...(b.icon != null ? { icon: b.icon } : {}),
        ...(b.draft !== undefined ? { draft: b.draft } : {}),
        ...(b.parent !== undefined ? { parent: b.parent } : {}),
        sections: [],
      };
      createGroup(ctx.store, site, group, b.sections ?? []);
      const location = ctx.apiUrl(`/orgs/${site.orgId}/sites/${site.id}/section-groups/${group.id}`);
      return { ...created(presentGroup(ctx, site, group)), headers: { location } };
    },
  }),
  updateSiteSectionGroupById: route({
    method: 'PATCH',
    pattern: GROUP,
    body: patchBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      const base = b.parentSectionGroupId === undefined ? group : reparentGroup(ctx.store, site, group, b.parentSectionGroupId);
      const next = siteSectionGroups(ctx.store).put(written(base, b, ['title', 'localizedTitle', 'draft', 'icon'], ['icon']));
      return ok(presentGroup(ctx, site, next));
    },
  }),
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
  removeSectionFromSiteSectionGroup: route({
    method: 'DELETE',
    pattern: `${GROUP}/sections/:siteSectionId`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      return removeSectionFromGroup(ctx.store, site, group, param(ctx, 'siteSectionId')) ? resetContent() : noContent();
    },
  }),
  moveSiteSectionGroup: route({
    method: 'POST',
    pattern: `${GROUP}/move`,
    body: moveBody,
    handler: (ctx, pos) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      if (pos.end) moveGroupToEnd(ctx.store, site, group);
      else moveGroup(ctx.store, site, group, pos, pos.pointer.type);
      return ok(presentGroup(ctx, site, group));
    },
  }),
};
