/** Sites: list (space / title / published filters), create, get, patch, delete, and the published view. */
import type { RequestContext } from '../context.js';
import { badRequest, ok } from '../http.js';
import { queryBoolean, queryString } from '../query.js';
import type { SiteRec } from '../site-records.js';
import {
  AGENTS_CONTEXTS,
  SITE_TYPES,
  SITE_VISIBILITIES,
  emptyAdaptiveSchema,
  siteSections,
  siteShareLinks,
  siteSpaces,
  sites,
} from '../site-records.js';
import { addSiteSpace, deleteSiteStructure, hasSections, siteSpacesInOrder } from '../site-structure.js';
import { array, boolean, literal, nullable, object, oneOf, string, type Validator } from '../validate.js';
import { defaultLevel } from '../validate-spec-fields.js';
import { dropGrantsOn } from '../permission-records.js';
import { findInOrg, requireOrg } from './common.js';
import { SITE, SITES, newSpaceFor, requireBodySpace, requireSite } from './site-common.js';
import { dropSiteCustomization, siteCustomizationOf } from './site-customization.js';
import { dropPublishingAuth } from './site-publishing.js';
import { dropSiteRedirects } from './site-redirects.js';
import { bodyChild } from './site-children.js';
import { presentSite, presentSiteSpace, presentTopLevel } from './site-present.js';
import { assignWritten, create, list, newId, read, remove, update } from './crud.js';
import { route, type RouteTable } from './table.js';

/** The enum variant of `spaces` that creates a new space for the site (the references do not name it). */
export const NEW_SPACE = 'new';

const title = string({ min: 2, max: 128 });
const visibility = oneOf(SITE_VISIBILITIES);
// The official spec's SiteProxyOrigin pattern: a domain plus at least one path segment, no scheme.
const proxy = nullable(string({ max: 512, pattern: /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/ }));
/** `spaces`: a list of space ids to add, or the enum value that creates a new space for the site. */
const spacesList: Validator<string[] | typeof NEW_SPACE> = (v, path) => {
  if (Array.isArray(v)) return array(string({ min: 1 }))(v, path);
  if (typeof v === 'string') return literal(NEW_SPACE)(v, path);
  throw badRequest(`${path}: must be an array of space ids or "${NEW_SPACE}"`);
};

const createSite = object({ type: oneOf(SITE_TYPES), title, visibility, spaces: spacesList });
const patchSite = object({
  title,
  visibility,
  basename: string({ min: 1, max: 100 }),
  adaptiveContent: object({ enabled: boolean() }, ['enabled']),
  agentsContext: oneOf(AGENTS_CONTEXTS),
  defaultSiteSpace: string({ min: 1 }),
  defaultSiteSection: string({ min: 1 }),
  proxy,
  // The official spec's (management-api.md does not list them):
  defaultLevel,
  styleguide: nullable(string({ min: 1 })),
});

function listSites(ctx: RequestContext): SiteRec[] {
  const org = requireOrg(ctx);
  const titleFilter = queryString(ctx.query, 'title')?.toLowerCase();
  const space = queryString(ctx.query, 'space');
  const published = queryBoolean(ctx.query, 'published');
  const types = ctx.query.getAll('type'); // SiteType[]: `type=basic&type=premium`
  types.forEach((t) => oneOf(SITE_TYPES)(t, 'query.type'));
  let list = sites(ctx.store).where((s) => s.orgId === org.id);
  if (types.length > 0) list = list.filter((s) => types.includes(s.type));
  if (titleFilter) list = list.filter((s) => s.title.toLowerCase().includes(titleFilter));
  if (published !== undefined) list = list.filter((s) => s.published === published);
  if (space !== undefined)
    list = list.filter((s) => siteSpacesInOrder(ctx.store, s).some((ss) => ss.spaceId === space));
  return list;
}

function applyPatch(ctx: RequestContext, site: SiteRec, b: ReturnType<typeof patchSite>): void {
  // Check every reference first so a 400 changes nothing.
  bodyChild(ctx, site, siteSections, b.defaultSiteSection, 'body.defaultSiteSection', 'section');
  if (typeof b.styleguide === 'string') requireBodySpace(ctx, site, b.styleguide, 'body.styleguide');
  const defaultSection = b.defaultSiteSection ?? site.defaultSection;
  if (b.defaultSiteSpace !== undefined) {
    const ss = siteSpaces(ctx.store).get(b.defaultSiteSpace);
    if (ss?.siteId !== site.id || ss.section !== defaultSection)
      throw badRequest(
        `body.defaultSiteSpace: site space "${b.defaultSiteSpace}" is not a site space of ${hasSections(site) ? `the default section "${defaultSection}"` : 'the site root'}`,
      );
  }
  assignWritten(site, b, ['title', 'visibility', 'basename']);
  if (b.adaptiveContent !== undefined) site.adaptiveContent = b.adaptiveContent.enabled;
  assignWritten(site, b, ['agentsContext', 'defaultLevel', 'styleguide', 'proxy'], ['styleguide', 'proxy']);
  if (b.defaultSiteSection !== undefined) site.defaultSection = b.defaultSiteSection;
  if (b.defaultSiteSpace !== undefined) {
    const section = defaultSection === undefined ? undefined : siteSections(ctx.store).get(defaultSection);
    if (section) siteSections(ctx.store).put({ ...section, defaultSiteSpace: b.defaultSiteSpace });
    else site.defaultRootSpace = b.defaultSiteSpace;
  }
  sites(ctx.store).put(site);
}

export const siteRoutes: RouteTable = {
  listSites: list(SITES, listSites, presentSite),
  createSite: create(
    SITES,
    createSite,
    (ctx, b) => {
      const org = requireOrg(ctx);
      const siteTitle = b.title ?? 'Untitled site';
      const list = b.spaces === NEW_SPACE ? [] : [...new Set(b.spaces ?? [])];
      const now = ctx.now().toISOString();
      const site: SiteRec = {
        id: newId(ctx, sites(ctx.store), 'site'),
        orgId: org.id,
        type: b.type ?? 'basic',
        title: siteTitle,
        visibility: b.visibility ?? 'public',
        published: false,
        agentsContext: 'excluded',
        adaptiveContent: false,
        adaptiveSchema: emptyAdaptiveSchema(),
        adaptiveSchemaUpdatedAt: now,
        createdAt: now,
        nav: [],
        rootSpaces: [],
      };
      const found = list.map((id, i) => requireBodySpace(ctx, site, id, `body.spaces[${i}]`));
      if (b.spaces === NEW_SPACE) found.push(newSpaceFor(ctx, org.id, siteTitle));
      sites(ctx.store).put(site);
      for (const space of found) addSiteSpace(ctx.store, site, space.id, space.title);
      return site;
    },
    presentSite,
    { location: (site) => `/orgs/${site.orgId}/sites/${site.id}`, bodyOptional: true },
  ),
  getSiteById: read(SITE, requireSite, presentSite),
  updateSiteById: update(
    SITE,
    patchSite,
    (ctx, b) => {
      const site = requireSite(ctx);
      applyPatch(ctx, site, b);
      return site;
    },
    presentSite,
  ),
  deleteSiteById: remove(SITE, (ctx) => {
    const site = findInOrg(ctx, sites(ctx.store), 'siteId');
    if (!site) return false;
    deleteSiteStructure(ctx.store, site);
    for (const l of siteShareLinks(ctx.store).where((x) => x.siteId === site.id))
      siteShareLinks(ctx.store).delete(l.id);
    dropGrantsOn(ctx.store, 'site', [site.id]);
    dropSiteCustomization(ctx.store, site.id);
    dropSiteRedirects(ctx, site.id);
    dropPublishingAuth(ctx.store, site.id);
    return sites(ctx.store).delete(site.id);
  }),
  getPublishedContentSite: route({
    method: 'GET',
    pattern: `${SITE}/published`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const structure = hasSections(site)
        ? { type: 'sections', structure: presentTopLevel(ctx, site) }
        : {
            type: 'siteSpaces',
            structure: siteSpacesInOrder(ctx.store, site).map((ss) => presentSiteSpace(ctx, site, ss)),
          };
      // The spec also requires the customizations (the site's; the sandbox has no per-site-space ones) and the
      // integration scripts (the sandbox runs no integrations).
      const customizations = { site: siteCustomizationOf(ctx.store, site), siteSpaces: {} };
      return ok({
        object: 'published-content-site',
        site: presentSite(ctx, site),
        structure,
        customizations,
        scripts: [],
      });
    },
  }),
};
