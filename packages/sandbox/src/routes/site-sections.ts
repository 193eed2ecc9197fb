/** Site sections: list in navigation order, create, patch, delete, move (deprecated but listed). */
import { param } from '../context.js';
import { badRequest, created, noContent, ok, resetContent } from '../http.js';
import { pageOf } from '../paginate.js';
import type { SectionRec } from '../site-records.js';
import { siteSectionGroups, siteSections, siteSpaces } from '../site-records.js';
import { moveSectionToEnd, regroupSection } from '../site-groups.js';
import { localized } from '../validate-spec-fields.js';
import { addSection, checkSectionPath, deleteSection, groupOfSection, sectionsInOrder } from '../site-structure.js';
import { moveSection } from '../site-moves.js';
import { boolean, nullable, object, string } from '../validate.js';
import type { RouteModule } from './common.js';
import {
  SITE, condition, findChild, iconName, movePosition, newSpaceFor, nullableIcon, pointerOf, requireBodySpace, requireSection, requireSite,
  sectionDescription, sectionPath, sectionTitle, spaceTemplate,
} from './site-common.js';
import { presentSection, sectionGroupIndex } from './site-present.js';

const SECTIONS = `${SITE}/sections`;
const SECTION = `${SECTIONS}/:siteSectionId`;

/**
 * management-api.md's fields plus the official spec's: `spaceId: null` (a new space, from `template` if given),
 * `draft`, `pageId` (the home page of its site space) and `siteSectionGroupId` (created inside that group).
 */
const createSection = object(
  {
    spaceId: nullable(string({ min: 1 })), title: nullable(sectionTitle), icon: nullableIcon, draft: boolean(), pageId: string({ min: 1 }),
    siteSectionGroupId: string({ min: 1 }), template: spaceTemplate,
  },
  ['spaceId'],
);
const patchSection = object({
  title: sectionTitle,
  localizedTitle: localized(128),
  path: sectionPath,
  defaultSiteSpace: string({ min: 1 }),
  condition: nullable(condition),
  icon: nullable(iconName),
  draft: boolean(),
  description: nullable(sectionDescription),
  localizedDescription: localized(256),
  siteSectionGroupId: nullable(string({ min: 1 })),
});
const moveBody = movePosition(pointerOf(['site-section'], 'siteSection'), (p) => p.siteSection, 'siteSection');

/** A section title from a space title: the space title when it fits 2..128, else a fallback. */
function titleFromSpace(spaceTitle: string): string {
  const chars = [...spaceTitle];
  return chars.length < 2 ? 'Untitled section' : chars.slice(0, 128).join('');
}

export const siteSectionRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: SECTIONS,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const groups = sectionGroupIndex(ctx, site);
      return pageOf(ctx, sectionsInOrder(ctx.store, site), (s) => presentSection(ctx, site, s, groups.get(s.id)));
    },
  });
  router.add({
    method: 'POST',
    pattern: SECTIONS,
    body: createSection,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      if (b.template !== undefined && b.spaceId !== null) throw badRequest('body.template: only with spaceId null (a template fills the new space)');
      const group = b.siteSectionGroupId === undefined ? undefined : siteSectionGroups(ctx.store).get(b.siteSectionGroupId);
      if (b.siteSectionGroupId !== undefined && group?.siteId !== site.id)
        throw badRequest(`body.siteSectionGroupId: section group "${b.siteSectionGroupId}" not found in site "${site.id}"`);
      const space = b.spaceId === null ? newSpaceFor(ctx, site.orgId, b.title ?? 'Untitled section') : requireBodySpace(ctx, site, b.spaceId, 'body.spaceId');
      const section = addSection(ctx.store, site, {
        title: b.title ?? titleFromSpace(space.title),
        ...(b.icon != null ? { icon: b.icon } : {}),
        spaceId: space.id,
        spaceTitle: space.title,
      });
      if (b.draft !== undefined) section.draft = b.draft;
      siteSections(ctx.store).put(section);
      if (b.pageId !== undefined) {
        const ss = siteSpaces(ctx.store).get(section.defaultSiteSpace);
        if (ss) siteSpaces(ctx.store).put({ ...ss, pageId: b.pageId });
      }
      if (group) regroupSection(ctx.store, site, section, group.id);
      const location = ctx.apiUrl(`/orgs/${site.orgId}/sites/${site.id}/sections/${section.id}`);
      return { ...created(presentSection(ctx, site, section, group?.id)), headers: { location } };
    },
  });
  router.add({
    method: 'PATCH',
    pattern: SECTION,
    body: patchSection,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      const section = requireSection(ctx, site);
      if (b.path !== undefined) checkSectionPath(ctx.store, site, section, b.path);
      if (b.defaultSiteSpace !== undefined && siteSpaces(ctx.store).get(b.defaultSiteSpace)?.section !== section.id)
        throw badRequest(`body.defaultSiteSpace: site space "${b.defaultSiteSpace}" is not in section "${section.id}"`);
      if (typeof b.siteSectionGroupId === 'string' && siteSectionGroups(ctx.store).get(b.siteSectionGroupId)?.siteId !== site.id)
        throw badRequest(`body.siteSectionGroupId: section group "${b.siteSectionGroupId}" not found in site "${site.id}"`);
      const next: SectionRec = { ...section };
      if (b.title !== undefined) next.title = b.title;
      if (b.path !== undefined) next.path = b.path;
      if (b.defaultSiteSpace !== undefined) next.defaultSiteSpace = b.defaultSiteSpace;
      for (const key of ['condition', 'icon', 'description'] as const) {
        const v = b[key];
        if (v === null) delete next[key];
        else if (v !== undefined) next[key] = v;
      }
      if (b.draft !== undefined) next.draft = b.draft;
      if (b.localizedTitle !== undefined) next.localizedTitle = b.localizedTitle;
      if (b.localizedDescription !== undefined) next.localizedDescription = b.localizedDescription;
      siteSections(ctx.store).put(next);
      if (b.siteSectionGroupId !== undefined) regroupSection(ctx.store, site, next, b.siteSectionGroupId);
      return ok(presentSection(ctx, site, next, groupOfSection(ctx.store, site, next.id)?.id));
    },
  });
  router.add({
    method: 'DELETE',
    pattern: SECTION,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const section = findChild(site, siteSections(ctx.store).get(param(ctx, 'siteSectionId')));
      if (!section) return noContent();
      deleteSection(ctx.store, site, section);
      return resetContent();
    },
  });
  router.add({
    method: 'POST',
    pattern: `${SECTION}/move`,
    body: moveBody,
    handler: (ctx, pos) => {
      const site = requireSite(ctx);
      const section = requireSection(ctx, site);
      if (pos.end) moveSectionToEnd(ctx.store, site, section);
      else moveSection(ctx.store, site, section, pos);
      return ok(presentSection(ctx, site, section, groupOfSection(ctx.store, site, section.id)?.id));
    },
  });
};
