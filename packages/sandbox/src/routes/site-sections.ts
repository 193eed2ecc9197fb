/** Site sections: list in navigation order, create, patch, delete, move (deprecated but listed). */
import { badRequest, created, ok } from '../http.js';
import { siteSectionGroups, siteSections, siteSpaces, type SectionRec } from '../site-records.js';
import { moveSectionToEnd, regroupSection } from '../site-groups.js';
import { localized } from '../validate-spec-fields.js';
import { addSection, checkSectionPath, deleteSection, groupOfSection, sectionsInOrder } from '../site-structure.js';
import { moveSection } from '../site-moves.js';
import { boolean, nullable, object, string } from '../validate.js';
import {
  SITE, condition, iconName, movePosition, newSpaceFor, nullableIcon, pointerOf, removeChild, requireBodySpace, requireSection, requireSite,
  sectionDescription, sectionPath, sectionTitle, spaceTemplate,
} from './site-common.js';
import { presentSection, sectionGroupIndex } from './site-present.js';
import { listPage, written } from './crud.js';
import { route, type RouteTable } from './table.js';

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

export const siteSectionRoutes: RouteTable = {
  listSiteSections: listPage(SECTIONS, (ctx) => {
    const site = requireSite(ctx);
    const groups = sectionGroupIndex(ctx, site);
    return [sectionsInOrder(ctx.store, site), (s: SectionRec) => presentSection(ctx, site, s, groups.get(s.id))];
  }),
  addSectionToSite: route({
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
  }),
  updateSiteSectionById: route({
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
      const fields = ['title', 'path', 'defaultSiteSpace', 'condition', 'icon', 'description', 'draft', 'localizedTitle', 'localizedDescription'] as const;
      const next = written(section, b, fields, ['condition', 'icon', 'description']);
      siteSections(ctx.store).put(next);
      if (b.siteSectionGroupId !== undefined) regroupSection(ctx.store, site, next, b.siteSectionGroupId);
      return ok(presentSection(ctx, site, next, groupOfSection(ctx.store, site, next.id)?.id));
    },
  }),
  deleteSiteSectionById: removeChild(SECTION, siteSections, 'siteSectionId', deleteSection),
  moveSiteSection: route({
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
  }),
};
