/** Site sections: list in navigation order, create, patch, delete, move (deprecated but listed). */
import type { RequestContext } from '../context.js';
import { badRequest } from '../http.js';
import { siteSectionGroups, siteSections, siteSpaces, type SectionRec, type SiteRec } from '../site-records.js';
import { moveSectionToEnd, regroupSection } from '../site-groups.js';
import { localized } from '../validate-spec-fields.js';
import { addSection, checkSectionPath, deleteSection, groupOfSection, sectionsInOrder } from '../site-structure.js';
import { moveSection } from '../site-moves.js';
import { boolean, nullable, object, string } from '../validate.js';
import {
  SITE,
  checkTemplate,
  condition,
  iconName,
  nullableIcon,
  requireSite,
  sectionDescription,
  sectionPath,
  sectionTitle,
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
  requireSection,
} from './site-children.js';
import { presentSection, sectionGroupIndex } from './site-present.js';
import { listPage, written } from './crud.js';
import type { RouteTable } from './table.js';

const SECTIONS = `${SITE}/sections`;
const SECTION = `${SECTIONS}/:siteSectionId`;

/**
 * management-api.md's fields plus the official spec's: `spaceId: null` (a new space, from `template` if given),
 * `draft`, `pageId` (the home page of its site space) and `siteSectionGroupId` (created inside that group).
 */
const createSection = object(
  {
    spaceId: nullable(string({ min: 1 })),
    title: nullable(sectionTitle),
    icon: nullableIcon,
    draft: boolean(),
    pageId: string({ min: 1 }),
    siteSectionGroupId: string({ min: 1 }),
    template: spaceTemplate,
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

/** A section as its operations answer it: with the group it is in now. */
const inItsGroup = (ctx: RequestContext, site: SiteRec, s: SectionRec): Record<string, unknown> =>
  presentSection(ctx, site, s, groupOfSection(ctx.store, site, s.id)?.id);

export const siteSectionRoutes: RouteTable = {
  listSiteSections: listPage(SECTIONS, (ctx) => {
    const site = requireSite(ctx);
    const groups = sectionGroupIndex(ctx, site);
    return [sectionsInOrder(ctx.store, site), (s: SectionRec) => presentSection(ctx, site, s, groups.get(s.id))];
  }),
  addSectionToSite: addChild(
    SECTIONS,
    'sections',
    createSection,
    (ctx, site, b) => {
      checkTemplate(b);
      const group = bodyChild(
        ctx,
        site,
        siteSectionGroups,
        b.siteSectionGroupId,
        'body.siteSectionGroupId',
        'section group',
      );
      const space = spaceOfNewChild(ctx, site, b.spaceId, b.title ?? 'Untitled section');
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
      return section;
    },
    inItsGroup,
  ),
  updateSiteSectionById: changeChild(
    'PATCH',
    SECTION,
    patchSection,
    requireSection,
    (ctx, site, section, b) => {
      if (b.path !== undefined) checkSectionPath(ctx.store, site, section, b.path);
      if (b.defaultSiteSpace !== undefined && siteSpaces(ctx.store).get(b.defaultSiteSpace)?.section !== section.id)
        throw badRequest(`body.defaultSiteSpace: site space "${b.defaultSiteSpace}" is not in section "${section.id}"`);
      bodyChild(
        ctx,
        site,
        siteSectionGroups,
        b.siteSectionGroupId ?? undefined,
        'body.siteSectionGroupId',
        'section group',
      );
      const fields = [
        'title',
        'path',
        'defaultSiteSpace',
        'condition',
        'icon',
        'description',
        'draft',
        'localizedTitle',
        'localizedDescription',
      ] as const;
      const next = written(section, b, fields, ['condition', 'icon', 'description']);
      siteSections(ctx.store).put(next);
      if (b.siteSectionGroupId !== undefined) regroupSection(ctx.store, site, next, b.siteSectionGroupId);
      return next;
    },
    inItsGroup,
  ),
  deleteSiteSectionById: removeChild(SECTION, siteSections, 'siteSectionId', deleteSection),
  moveSiteSection: moveChild(SECTION, moveBody, requireSection, moveSectionToEnd, moveSection, inItsGroup),
};
