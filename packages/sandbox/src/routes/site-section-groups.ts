/** Site section groups: list, create, patch, delete, add / remove a section, move (deprecated but listed). */
import { param } from '../context.js';
import { created, noContent, ok, resetContent } from '../http.js';
import { pageOf } from '../paginate.js';
import type { GroupRec } from '../site-records.js';
import { siteSectionGroups } from '../site-records.js';
import { addSectionToGroup, createGroup, deleteGroup, groupsInOrder, removeSectionFromGroup } from '../site-structure.js';
import { moveGroup } from '../site-moves.js';
import { array, boolean, nullable, object, string } from '../validate.js';
import { moveGroupToEnd, reparentGroup } from '../site-groups.js';
import { localized } from '../validate-spec-fields.js';
import type { RouteModule } from './common.js';
import { SITE, findChild, groupTitle, movePosition, nullableIcon, pointerOf, requireGroup, requireSite } from './site-common.js';
import { presentGroup } from './site-present.js';

const GROUPS = `${SITE}/section-groups`;
const GROUP = `${GROUPS}/:siteSectionGroupId`;

/** management-api.md's fields plus the official spec's `parent` (nest in a group), `draft`, `localizedTitle`. */
const createBody = object({ title: groupTitle, icon: nullableIcon, sections: array(string({ min: 1 })), parent: string({ min: 1 }), draft: boolean() }, ['title']);
const patchBody = object({ title: groupTitle, localizedTitle: localized(128), icon: nullableIcon, draft: boolean(), parentSectionGroupId: nullable(string({ min: 1 })) });
const addBody = object({ sectionId: string({ min: 1 }) }, ['sectionId']);
const moveBody = movePosition(pointerOf(['site-section', 'site-section-group'], 'id'), (p) => p.id, 'id');

export const siteSectionGroupRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: GROUPS,
    handler: (ctx) => {
      const site = requireSite(ctx);
      return pageOf(ctx, groupsInOrder(ctx.store, site), (g) => presentGroup(ctx, site, g));
    },
  });
  router.add({
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
  });
  router.add({
    method: 'PATCH',
    pattern: GROUP,
    body: patchBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      const next: GroupRec = { ...(b.parentSectionGroupId === undefined ? group : reparentGroup(ctx.store, site, group, b.parentSectionGroupId)) };
      if (b.title !== undefined) next.title = b.title;
      if (b.localizedTitle !== undefined) next.localizedTitle = b.localizedTitle;
      if (b.draft !== undefined) next.draft = b.draft;
      if (b.icon === null) delete next.icon;
      else if (b.icon !== undefined) next.icon = b.icon;
      siteSectionGroups(ctx.store).put(next);
      return ok(presentGroup(ctx, site, next));
    },
  });
  router.add({
    method: 'DELETE',
    pattern: GROUP,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = findChild(site, siteSectionGroups(ctx.store).get(param(ctx, 'siteSectionGroupId')));
      if (!group) return noContent();
      deleteGroup(ctx.store, site, group);
      return resetContent();
    },
  });
  router.add({
    method: 'POST',
    pattern: `${GROUP}/sections`,
    body: addBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      addSectionToGroup(ctx.store, site, group, b.sectionId);
      return created(presentGroup(ctx, site, group));
    },
  });
  router.add({
    method: 'DELETE',
    pattern: `${GROUP}/sections/:siteSectionId`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      return removeSectionFromGroup(ctx.store, site, group, param(ctx, 'siteSectionId')) ? resetContent() : noContent();
    },
  });
  router.add({
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
  });
};
