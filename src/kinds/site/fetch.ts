/**
 * Site fetch: the sites list, and only for the sites a manifest manages what their spec writes: sections,
 * groups and site spaces (when it writes structure or defaults), share links, the adaptive schema; plus the
 * organization's spaces when a spec names any (the list is memoised, shared with the Space kind). Under prune
 * it also reads what each site a delete would take holds (readSiteTrees in structure.ts), and the grants of the
 * sites whose manifest writes `access:` (src/kinds/access/fetch.ts).
 */
import type { DesiredEntry, FetchContext } from '../../model/kind.js';
import { accessReader } from '../access/fetch.js';
import { isRecord } from '../common.js';
import { matchByIdOrTitle } from '../match.js';
import { spaceRefs } from './desired.js';
import { gitSyncBySite } from './git-sync.js';
import {
  SITE_KIND,
  sitesPath,
  spacesPath,
  type LiveSpaceRef,
  type SiteAux,
  type SiteSpec,
  type SiteState,
  type SiteStructure,
  SITE_ACCESS,
} from './model.js';
import { childObjects, readSiteTrees, readStructure, siteObject } from './structure.js';
import { publicationObjects, readExternalLinks, readPublishingAuth, readRedirects } from './live-reads.js';

const defined = <T>(x: T | undefined): x is T => x !== undefined;

/** What of a site's structure its spec needs compared (redirects name sections and site spaces by path and space). */
export function needsStructure(spec: SiteSpec): boolean {
  const named = (spec.redirects ?? []).some((r) => !('url' in r.destination));
  return (
    named ||
    spec.externalLinks !== undefined ||
    spec.sections !== undefined ||
    spec.sectionGroups !== undefined ||
    spec.spaces !== undefined ||
    spec.defaultSection !== undefined ||
    spec.defaultSiteSpace !== undefined
  );
}

/**
 * `synced`: Git Sync owns the site's structure (its sections, groups, site spaces and external links), which docops
 * then never reads (git-sync.ts); the site's other settings are read as usual.
 */
async function fetchStructure(
  ctx: FetchContext,
  org: string,
  siteId: string,
  spec: SiteSpec,
  synced: boolean,
): Promise<SiteStructure> {
  const [structure, redirects, publishingAuth, links] = await Promise.all([
    readStructure(ctx, org, siteId, {
      structure: needsStructure(spec) && !synced,
      shareLinks: spec.shareLinks !== undefined,
      adaptiveSchema: spec.adaptiveSchema !== undefined,
      customization: spec.customization !== undefined,
    }),
    spec.redirects ? readRedirects(ctx, org, siteId) : undefined,
    spec.publishingAuth ? readPublishingAuth(ctx, org, siteId) : undefined,
    spec.externalLinks && !synced ? readExternalLinks(ctx, org, siteId) : undefined,
  ]);
  if (redirects) structure.redirects = redirects;
  if (publishingAuth) structure.publishingAuth = publishingAuth;
  if (links) structure.externalLinks = links;
  return structure;
}

/** The sites, and what the desired entries' specs need of each managed site (aux always set). */
export async function fetchSites(
  ctx: FetchContext,
  org: string,
  desired: DesiredEntry<SiteSpec>[],
): Promise<SiteState & { aux: SiteAux }> {
  const access = accessReader(ctx, org, SITE_ACCESS, desired);
  const specs = desired.map((e) => e.spec);
  // Written site spaces (even an empty list, as export's probe writes them) need the spaces to name them.
  const wantsSpaces = specs.some(
    (s) =>
      spaceRefs(s).length > 0 ||
      s.defaultSiteSpace !== undefined ||
      s.sections !== undefined ||
      s.spaces !== undefined ||
      s.redirects !== undefined,
  );
  const [items, spaces] = await Promise.all([
    ctx.list(sitesPath(org)),
    wantsSpaces ? ctx.list(spacesPath(org)) : Promise.resolve([]),
  ]);
  const sites = items.map((s) => siteObject(org, s)).filter(defined);
  const aux: SiteAux = {
    structures: {},
    spaces: spaces
      .filter(isRecord)
      .map((s): LiveSpaceRef => ({ id: String(s['id']), title: String(s['title'] ?? '') })),
  };
  const gitSync = gitSyncBySite(items);
  if (Object.keys(gitSync).length > 0) aux.gitSync = gitSync;
  // Children only for managed sites (throws ConflictError when an unpinned title matches two sites).
  const { matched, unmatched } = matchByIdOrTitle(SITE_KIND, desired, sites);
  const children = await Promise.all(
    [...matched].map(async ([e, site]) => {
      const structure = await fetchStructure(ctx, org, site.id, e.spec, gitSync[site.id] !== undefined);
      aux.structures[site.id] = structure;
      return childObjects(org, site, structure);
    }),
  );
  const grants = await access.read(sites);
  Object.assign(aux, grants.aux);
  const state: SiteState & { aux: SiteAux } = {
    objects: [...sites, ...publicationObjects(sites), ...children.flat(), ...grants.objects],
    aux,
  };
  // Under prune, a site no manifest describes is deleted with everything below it: read what that is.
  if (ctx.prune(SITE_KIND, org) && unmatched.length > 0) {
    const trees = await readSiteTrees(ctx, org, unmatched);
    aux.pruned = trees.pruned;
    state.related = trees.related;
  }
  return state;
}
