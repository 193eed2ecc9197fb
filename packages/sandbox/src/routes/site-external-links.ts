/**
 * Site external links (official spec; management-api.md does not list them): create (201 + Location; `parent` a
 * section group of the site, else the top level), patch (every field; `parent: null` back to the top level, a
 * group id into that group — at the end of its container either way; `null` unsets the description, icon,
 * condition and localized texts) and delete (205, 204 when it did not exist). A site without sections has no
 * navigation to hold a link: 400.
 */
import { badRequest, created } from '../http.js';
import type { SiteRec } from '../site-records.js';
import { siteSectionGroups } from '../site-records.js';
import { lastOrder, siteExternalLinks, type ExternalLinkRec } from '../site-external-links.js';
import { hasSections } from '../site-structure.js';
import { boolean, nullable, object, string } from '../validate.js';
import { localized } from '../validate-spec-fields.js';
import { SITE, condition, iconName, removeChild, requireChild, requireSite, sectionDescription, sectionTitle } from './site-common.js';
import { presentExternalLink } from './site-present.js';
import { update, written } from './crud.js';
import { route, type RouteTable } from './table.js';

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

function requireGroup(site: SiteRec, id: string, groups: ReturnType<typeof siteSectionGroups>, path: string): string {
  if (groups.get(id)?.siteId !== site.id) throw badRequest(`${path}: section group "${id}" not found in site "${site.id}"`);
  return id;
}

const NULL_UNSETS = ['description', 'icon', 'condition', 'localizedTitle', 'localizedDescription'] as const;

/** The optional fields of a body laid over a link: a value sets, null unsets, absent keeps. */
const withFields = (l: ExternalLinkRec, b: Partial<{ [K in keyof typeof fields]: ReturnType<(typeof fields)[K]> }>): ExternalLinkRec =>
  written(l, b, ['title', 'url', 'draft', ...NULL_UNSETS], NULL_UNSETS);

export const siteExternalLinkRoutes: RouteTable = {
  addExternalLinkToSite: route({
    method: 'POST',
    pattern: LINKS,
    body: createBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      if (!hasSections(site)) throw badRequest(`site "${site.id}" has no sections: its navigation holds no external links`);
      const group = b.parent === undefined ? undefined : requireGroup(site, b.parent, siteSectionGroups(ctx.store), 'body.parent');
      const table = siteExternalLinks(ctx.store);
      const base: ExternalLinkRec = { id: ctx.store.nextId('xl', (x) => table.has(x)), siteId: site.id, title: b.title, url: b.url, order: lastOrder(ctx.store, site.id, group), ...(group ? { group } : {}) };
      const link = table.put(withFields(base, b));
      return { ...created(presentExternalLink(link)), headers: { location: ctx.apiUrl(`/orgs/${site.orgId}/sites/${site.id}/external-links/${link.id}`) } };
    },
  }),
  updateSiteExternalLinkById: update(
    LINK,
    patchBody,
    (ctx, b) => {
      const site = requireSite(ctx);
      const have = requireChild(ctx, site, siteExternalLinks, 'siteExternalLinkId', 'external link');
      const next = withFields(have, b);
      if (b.parent !== undefined) {
        const group = b.parent === null ? undefined : requireGroup(site, b.parent, siteSectionGroups(ctx.store), 'body.parent');
        if (group !== have.group) {
          next.order = lastOrder(ctx.store, site.id, group);
          if (group === undefined) delete next.group;
          else next.group = group;
        }
      }
      return siteExternalLinks(ctx.store).put(next);
    },
    (_ctx, link) => presentExternalLink(link),
  ),
  deleteSiteExternalLinkById: removeChild(LINK, siteExternalLinks, 'siteExternalLinkId'),
};
