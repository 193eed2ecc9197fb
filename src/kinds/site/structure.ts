/**
 * Reading a site's structure through the API: the site and its sections, section groups, site spaces, share
 * links and adaptive schema as the Site kind keeps them, and those sub-objects as live objects of their own
 * kinds (for the safety gate, the journal and plan digests). Share-link URLs (they carry the secret) are dropped
 * right here and never reach a live object.
 *
 * Under prune, when a site would be deleted, its structure is read (readSiteTrees) for its cascades. Only its own:
 * the safety gate measures a site's sub-objects against that site's lists (LiveObject.parent), and a pruned site's
 * lists go with it, so other sites' lists would change no verdict (they used to be read, every site, to make an
 * organization total of sections and site spaces).
 */
import type { FetchContext, LiveObject } from '../../model/kind.js';
import { isRecord, stringOrNull as strOrNull } from '../common.js';
import { externalLinkObjects, readExternalLinks, readRedirects, redirectObjects } from './live-reads.js';
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
  type LiveGroup,
  type LiveSection,
  type LiveShareLink,
  type LiveSiteSpace,
  type SiteChildObject,
  type SiteFields,
  type SiteObject,
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
    published: s['published'] === true,
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
    draft: x['draft'] === true,
    localizedTitle: localized(x['localizedTitle']),
    localizedDescription: localized(x['localizedDescription']),
  };
}

/** A localized text map (language → text), or null when there is none. */
function localized(v: unknown): Record<string, string> | null {
  if (!isRecord(v)) return null;
  const out = Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return Object.keys(out).length > 0 ? out : null;
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
    hidden: x['hidden'] === true,
    draft: x['draft'] === true,
  };
}

function group(x: unknown): LiveGroup | undefined {
  if (!isRecord(x) || typeof x['id'] !== 'string') return undefined;
  const members = Array.isArray(x['sections']) ? x['sections'] : [];
  return {
    id: x['id'],
    title: String(x['title'] ?? ''),
    icon: strOrNull(x['icon']),
    draft: x['draft'] === true,
    localizedTitle: localized(x['localizedTitle']),
    sections: members.map((m) => (isRecord(m) ? m['id'] : m)).filter((id): id is string => typeof id === 'string'),
  };
}

/** Only id, name and active: `urls.published` holds the share secret. */
function shareLink(x: unknown): LiveShareLink | undefined {
  if (!isRecord(x) || typeof x['id'] !== 'string') return undefined;
  return { id: x['id'], name: String(x['name'] ?? ''), active: x['active'] !== false };
}

const defined = <T>(x: T | undefined): x is T => x !== undefined;

/**
 * A site space belongs to a listed section or to the site's root. One whose section is not listed went with it: a
 * list may show a change a while after it is made (docs/reliability.md, "Lists that answer late"), and the
 * site-spaces list can still show what a section's delete took (else the next plan would delete it again).
 */
function consistentSiteSpaces(sections: readonly unknown[], listed: LiveSiteSpace[]): LiveSiteSpace[] {
  const sectionIds = new Set(sections.filter(isRecord).map((x) => x['id']));
  return listed.filter((x) => x.section === null || sectionIds.has(x.section));
}

/** The parts of one site's structure asked for (memoised lists: asking twice costs one read). */
export async function readStructure(
  ctx: FetchContext,
  org: string,
  siteId: string,
  parts: {
    structure: boolean;
    groups?: boolean;
    shareLinks?: boolean;
    adaptiveSchema?: boolean;
    customization?: boolean;
  },
): Promise<SiteStructure> {
  const base = sitePath(org, siteId);
  const structural = parts.structure;
  const [sections, groups, siteSpaces, links, schema, customization] = await Promise.all([
    structural ? ctx.list(`${base}/sections`) : Promise.resolve([]),
    structural && parts.groups !== false ? ctx.list(`${base}/section-groups`) : Promise.resolve([]),
    structural ? ctx.list(`${base}/site-spaces`) : Promise.resolve([]),
    parts.shareLinks ? ctx.list(`${base}/share-links`) : Promise.resolve(undefined),
    parts.adaptiveSchema ? ctx.get<Record<string, unknown>>(`${base}/adaptive-schema`) : Promise.resolve(undefined),
    parts.customization ? ctx.get<unknown>(`${base}/customization`) : Promise.resolve(undefined),
  ]);
  const out: SiteStructure = {
    sections: sections.map(section).filter(defined),
    groups: groups.map(group).filter(defined),
    siteSpaces: consistentSiteSpaces(sections, siteSpaces.map(siteSpace).filter(defined)),
  };
  if (links) out.shareLinks = links.map(shareLink).filter(defined);
  if (schema) out.adaptiveSchema = isRecord(schema) ? schema['jsonSchema'] : undefined;
  if (customization !== undefined) out.customization = customization;
  return out;
}

/**
 * Sub-objects as LiveObjects (kinds SiteSection, SiteSectionGroup, SiteSpace, SiteShareLink, SiteRedirect) for the safety gate and
 * journal, keyed by the site's title; their parent is the site (the gate measures changes against its lists).
 */
export function childObjects(org: string, site: { id: string; key: string }, s: SiteStructure): SiteChildObject[] {
  const siteTitle = site.key;
  const parent = { kind: SITE_KIND, id: site.id, key: site.key };
  const pathOf = new Map(s.sections.map((x) => [x.id, x.path]));
  const groupTitle = new Map(s.groups.map((g) => [g.id, g.title]));
  const out: SiteChildObject[] = [];
  for (const x of s.sections) {
    const fields = {
      path: x.path,
      title: x.title,
      icon: x.icon,
      description: x.description,
      condition: x.condition,
      group: x.group === null ? null : (groupTitle.get(x.group) ?? x.group),
    };
    out.push({ kind: SECTION_KIND, org, key: sectionKey(siteTitle, x.path), id: x.id, fields, parent });
  }
  for (const g of s.groups) {
    out.push({
      kind: GROUP_KIND,
      org,
      key: groupKey(siteTitle, g.title),
      id: g.id,
      fields: { title: g.title, icon: g.icon, sections: g.sections.map((id) => pathOf.get(id) ?? id) },
      parent,
    });
  }
  for (const x of s.siteSpaces) {
    const sectionPath = x.section === null ? null : (pathOf.get(x.section) ?? x.section);
    const fields = {
      space: x.spaceTitle,
      spaceId: x.spaceId,
      section: sectionPath,
      path: x.path,
      condition: x.condition,
    };
    out.push({
      kind: SITE_SPACE_KIND,
      org,
      key: siteSpaceKey(siteTitle, sectionPath, x.spaceTitle),
      id: x.id,
      fields,
      parent,
    });
  }
  for (const l of s.shareLinks ?? [])
    out.push({
      kind: SHARE_LINK_KIND,
      org,
      key: shareLinkKey(siteTitle, l.name),
      id: l.id,
      fields: { name: l.name, active: l.active },
      parent,
    });
  out.push(...redirectObjects(org, site, s), ...externalLinkObjects(org, site, s));
  return out;
}

export interface SiteTrees {
  /** Children of the pruned sites, as live objects (the gate counts them as the site's delete). */
  related: SiteChildObject[];
  /** Pruned site id → its structure (with share links and adaptive schema). */
  pruned: Record<string, SiteStructure>;
}

/** The structure of each site that would be deleted (`pruned`), with its share links and adaptive schema. */
export async function readSiteTrees(ctx: FetchContext, org: string, pruned: readonly LiveObject[]): Promise<SiteTrees> {
  const out: SiteTrees = { related: [], pruned: {} };
  const trees = await Promise.all(
    pruned.map(async (site) => {
      const [structure, schema, redirects, links] = await Promise.all([
        readStructure(ctx, org, site.id, { structure: true, shareLinks: true }),
        ctx.get<unknown>(`${sitePath(org, site.id)}/adaptive-schema`),
        readRedirects(ctx, org, site.id),
        readExternalLinks(ctx, org, site.id),
      ]);
      if (isRecord(schema)) structure.adaptiveSchema = schema['jsonSchema'];
      structure.redirects = redirects;
      structure.externalLinks = links;
      return { site, structure };
    }),
  );
  for (const { site, structure } of trees) {
    out.related.push(...childObjects(org, site, structure));
    out.pruned[site.id] = structure;
  }
  return out;
}
