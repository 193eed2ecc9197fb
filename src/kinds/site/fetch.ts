/**
 * Site fetch: the sites list, and only for the sites a manifest manages what their spec writes: sections,
 * groups and site spaces (when it writes structure or defaults), share links, the adaptive schema; plus the
 * organization's spaces when a spec names any (the list is memoised, shared with the Space kind).
 * Share-link URLs (they carry the secret) are dropped right here and never reach a LiveObject.
 */
import type { DesiredEntry, FetchContext } from '../../core/kind.js';
import { isRecord, stringOrNull as strOrNull } from '../common.js';
import { matchByIdOrTitle } from '../match.js';
import { readSiteTrees } from './cascades.js';
import { spaceRefs } from './desired.js';
import {
  GROUP_KIND,
  SECTION_KIND,
  SHARE_LINK_KIND,
  SITE_KIND,
  SITE_SPACE_KIND,
  groupKey,
  sectionKey,
  shareLinkKey,
  siteSpaceKey,
  sitePath,
  sitesPath,
  spacesPath,
  type LiveGroup,
  type LiveSection,
  type LiveShareLink,
  type LiveSiteSpace,
  type LiveSpaceRef,
  type SiteAux,
  type SiteChildObject,
  type SiteFields,
  type SiteObject,
  type SiteSpec,
  type SiteState,
  type SiteStructure,
} from './model.js';

export function siteObject(org: string, s: unknown): SiteObject | undefined {
  if (!isRecord(s) || typeof s['id'] !== 'string' || typeof s['title'] !== 'string') return undefined;
  const proxy = isRecord(s['proxy']) ? strOrNull(s['proxy']['origin']) : strOrNull(s['proxy']);
  const adaptive = isRecord(s['adaptiveContent']) ? s['adaptiveContent']['enabled'] === true : false;
  const fields: SiteFields = {
    title: s['title'],
    visibility: strOrNull(s['visibility']),
    basename: strOrNull(s['basename']),
    proxy,
    adaptiveContent: { enabled: adaptive },
    agentsContext: strOrNull(s['agentsContext']),
  };
  return { kind: SITE_KIND, org, key: s['title'], id: s['id'], fields };
}

function section(x: unknown): LiveSection | undefined {
  if (!isRecord(x) || typeof x['id'] !== 'string' || typeof x['path'] !== 'string') return undefined;
  return {
    id: x['id'],
    path: x['path'],
    title: String(x['title'] ?? ''),
    icon: strOrNull(x['icon']),
    description: strOrNull(x['description']),
    condition: strOrNull(x['condition']),
    group: strOrNull(x['sectionGroup']),
    default: x['default'] === true,
  };
}

function siteSpace(x: unknown): LiveSiteSpace | undefined {
  if (!isRecord(x) || typeof x['id'] !== 'string') return undefined;
  const space = isRecord(x['space']) ? x['space'] : {};
  return {
    id: x['id'],
    spaceId: String(space['id'] ?? ''),
    spaceTitle: String(space['title'] ?? x['title'] ?? ''),
    section: strOrNull(x['section']),
    path: String(x['path'] ?? ''),
    condition: strOrNull(x['condition']),
    default: x['default'] === true,
  };
}

function group(x: unknown): LiveGroup | undefined {
  if (!isRecord(x) || typeof x['id'] !== 'string') return undefined;
  const members = Array.isArray(x['sections']) ? x['sections'] : [];
  return {
    id: x['id'],
    title: String(x['title'] ?? ''),
    icon: strOrNull(x['icon']),
    sections: members.map((m) => (isRecord(m) ? m['id'] : m)).filter((id): id is string => typeof id === 'string'),
  };
}

/** Only id, name and active: `urls.published` holds the share secret. */
function shareLink(x: unknown): LiveShareLink | undefined {
  if (!isRecord(x) || typeof x['id'] !== 'string') return undefined;
  return { id: x['id'], name: String(x['name'] ?? ''), active: x['active'] !== false };
}

const defined = <T>(x: T | undefined): x is T => x !== undefined;

/** What of a site's structure its spec needs compared. */
export function needsStructure(spec: SiteSpec): boolean {
  return spec.sections !== undefined || spec.sectionGroups !== undefined || spec.spaces !== undefined || spec.defaultSection !== undefined || spec.defaultSiteSpace !== undefined;
}

async function fetchStructure(ctx: FetchContext, org: string, siteId: string, spec: SiteSpec): Promise<SiteStructure> {
  return readStructure(ctx, org, siteId, { structure: needsStructure(spec), shareLinks: spec.shareLinks !== undefined, adaptiveSchema: spec.adaptiveSchema !== undefined });
}

/** The parts of one site's structure asked for (memoised lists: asking twice costs one read). */
export async function readStructure(
  ctx: FetchContext,
  org: string,
  siteId: string,
  parts: { structure: boolean; groups?: boolean; shareLinks?: boolean; adaptiveSchema?: boolean },
): Promise<SiteStructure> {
  const base = sitePath(org, siteId);
  const structural = parts.structure;
  const [sections, groups, siteSpaces, links, schema] = await Promise.all([
    structural ? ctx.list(`${base}/sections`) : Promise.resolve([]),
    structural && parts.groups !== false ? ctx.list(`${base}/section-groups`) : Promise.resolve([]),
    structural ? ctx.list(`${base}/site-spaces`) : Promise.resolve([]),
    parts.shareLinks ? ctx.list(`${base}/share-links`) : Promise.resolve(undefined),
    parts.adaptiveSchema ? ctx.get<Record<string, unknown>>(`${base}/adaptive-schema`) : Promise.resolve(undefined),
  ]);
  const out: SiteStructure = { sections: sections.map(section).filter(defined), groups: groups.map(group).filter(defined), siteSpaces: siteSpaces.map(siteSpace).filter(defined) };
  if (links) out.shareLinks = links.map(shareLink).filter(defined);
  if (schema) out.adaptiveSchema = isRecord(schema) ? schema['jsonSchema'] : undefined;
  return out;
}

/** Sub-objects as LiveObjects (kinds SiteSection, SiteSectionGroup, SiteSpace, SiteShareLink) for the safety gate and journal. */
export function childObjects(org: string, siteTitle: string, s: SiteStructure): SiteChildObject[] {
  const pathOf = new Map(s.sections.map((x) => [x.id, x.path]));
  const groupTitle = new Map(s.groups.map((g) => [g.id, g.title]));
  const out: SiteChildObject[] = [];
  for (const x of s.sections) {
    const fields = { path: x.path, title: x.title, icon: x.icon, description: x.description, condition: x.condition, group: x.group === null ? null : (groupTitle.get(x.group) ?? x.group) };
    out.push({ kind: SECTION_KIND, org, key: sectionKey(siteTitle, x.path), id: x.id, fields });
  }
  for (const g of s.groups) {
    out.push({ kind: GROUP_KIND, org, key: groupKey(siteTitle, g.title), id: g.id, fields: { title: g.title, icon: g.icon, sections: g.sections.map((id) => pathOf.get(id) ?? id) } });
  }
  for (const x of s.siteSpaces) {
    const sectionPath = x.section === null ? null : (pathOf.get(x.section) ?? x.section);
    const fields = { space: x.spaceTitle, spaceId: x.spaceId, section: sectionPath, path: x.path, condition: x.condition };
    out.push({ kind: SITE_SPACE_KIND, org, key: siteSpaceKey(siteTitle, sectionPath, x.spaceTitle), id: x.id, fields });
  }
  for (const l of s.shareLinks ?? []) out.push({ kind: SHARE_LINK_KIND, org, key: shareLinkKey(siteTitle, l.name), id: l.id, fields: { name: l.name, active: l.active } });
  return out;
}

/** The sites, and what the desired entries' specs need of each managed site (aux always set). */
export async function fetchSites(ctx: FetchContext, org: string, desired: DesiredEntry<SiteSpec>[]): Promise<SiteState & { aux: SiteAux }> {
  const specs = desired.map((e) => e.spec);
  // Written site spaces (even an empty list, as export's probe writes them) need the spaces to name them.
  const wantsSpaces = specs.some((s) => spaceRefs(s).length > 0 || s.defaultSiteSpace !== undefined || s.sections !== undefined || s.spaces !== undefined);
  const [items, spaces] = await Promise.all([ctx.list(sitesPath(org)), wantsSpaces ? ctx.list(spacesPath(org)) : Promise.resolve([])]);
  const sites = items.map((s) => siteObject(org, s)).filter(defined);
  const aux: SiteAux = { structures: {}, spaces: spaces.filter(isRecord).map((s): LiveSpaceRef => ({ id: String(s['id']), title: String(s['title'] ?? '') })) };
  // Children only for managed sites (throws ConflictError when an unpinned title matches two sites).
  const { matched, unmatched } = matchByIdOrTitle(SITE_KIND, desired, sites);
  const children = await Promise.all(
    [...matched].map(async ([e, site]) => {
      const structure = await fetchStructure(ctx, org, site.id, e.spec);
      aux.structures[site.id] = structure;
      return childObjects(org, site.key, structure);
    }),
  );
  const state: SiteState & { aux: SiteAux } = { objects: [...sites, ...children.flat()], aux };
  // Under prune, a site no manifest describes is deleted with everything below it: read what that is.
  if (ctx.prune(SITE_KIND, org) && unmatched.length > 0) {
    const trees = await readSiteTrees(ctx, org, sites, new Set(unmatched.map((s) => s.id)));
    aux.pruned = trees.pruned;
    state.related = trees.related;
  }
  return state;
}
