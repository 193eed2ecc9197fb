/**
 * Site external links (official spec; management-api.md does not list them): create (201 + Location; `parent` a
 * section group of the site, else the top level), patch (every field; `parent: null` back to the top level, a
 * group id into that group — at the end of its container either way; `null` unsets the description, icon,
 * condition and localized texts) and delete (205, 204 when it did not exist). A site without sections has no
 * navigation to hold a link: 400.
 */
import type { RequestContext } from '../context.js';
import { badRequest } from '../http.js';
import type { SiteRec } from '../site-records.js';
import { siteSectionGroups } from '../site-records.js';
import { lastOrder, siteExternalLinks, type ExternalLinkRec } from '../site-external-links.js';
import { hasSections } from '../site-structure.js';
import { boolean, nullable, object, string } from '../validate.js';
import { localized } from '../validate-spec-fields.js';
import { SITE, condition, iconName, sectionDescription, sectionTitle } from './site-common.js';
import { addChild, bodyChild, changeChild, childOf, removeChild } from './site-children.js';
import { presentExternalLink } from './site-present.js';
import { newId, written } from './crud.js';
import type { RouteTable } from './table.js';

const LINKS = `${SITE}/external-links`;
const LINK = `${LINKS}/:siteExternalLinkId`;

const url = string({ max: 2048, format: 'uri' });
const fields = {
  title: sectionTitle,
  url,
  localizedTitle: nullable(localized(128)),
  description: nullable(sectionDescription),
  localizedDescription: nullable(localized(256)),
  icon: nullable(iconName),
  draft: boolean(),
  condition: nullable(condition),
};
const createBody = object({ ...fields, parent: string({ min: 1 }) }, ['title', 'url']);
const patchBody = object({ ...fields, parent: nullable(string({ min: 1 })) });

const NULL_UNSETS = ['description', 'icon', 'condition', 'localizedTitle', 'localizedDescription'] as const;

/** The optional fields of a body laid over a link: a value sets, null unsets, absent keeps. */
const withFields = (
  l: ExternalLinkRec,
  b: Partial<{ [K in keyof typeof fields]: ReturnType<(typeof fields)[K]> }>,
): ExternalLinkRec => written(l, b, ['title', 'url', 'draft', ...NULL_UNSETS], NULL_UNSETS);

const asLink = (_ctx: RequestContext, _site: SiteRec, link: ExternalLinkRec): Record<string, unknown> =>
  presentExternalLink(link);

export const siteExternalLinkRoutes: RouteTable = {
  addExternalLinkToSite: addChild(
    LINKS,
    'external-links',
    createBody,
    (ctx, site, b) => {
      if (!hasSections(site))
        throw badRequest(`site "${site.id}" has no sections: its navigation holds no external links`);
      const group = bodyChild(ctx, site, siteSectionGroups, b.parent, 'body.parent', 'section group')?.id;
      const table = siteExternalLinks(ctx.store);
      const base: ExternalLinkRec = {
        id: newId(ctx, table, 'xl'),
        siteId: site.id,
        title: b.title,
        url: b.url,
        order: lastOrder(ctx.store, site.id, group),
        ...(group ? { group } : {}),
      };
      return table.put(withFields(base, b));
    },
    asLink,
  ),
  updateSiteExternalLinkById: changeChild(
    'PATCH',
    LINK,
    patchBody,
    childOf(siteExternalLinks, 'siteExternalLinkId', 'external link'),
    (ctx, site, have, b) => {
      const next = withFields(have, b);
      if (b.parent !== undefined) {
        const group = bodyChild(
          ctx,
          site,
          siteSectionGroups,
          b.parent ?? undefined,
          'body.parent',
          'section group',
        )?.id;
        if (group !== have.group) {
          next.order = lastOrder(ctx.store, site.id, group);
          if (group === undefined) delete next.group;
          else next.group = group;
        }
      }
      return siteExternalLinks(ctx.store).put(next);
    },
    asLink,
  ),
  deleteSiteExternalLinkById: removeChild(LINK, siteExternalLinks, 'siteExternalLinkId'),
};
