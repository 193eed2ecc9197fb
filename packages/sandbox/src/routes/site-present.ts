/**
 * API objects of sites and their children, computed from the records. Fields the official spec requires
 * but management-api.md does not list (`appliedType`, `defaultLevel`, `permissions`, `features`,
 * `urls.preview`, `draft`, a group's `children`) are filled with fixed values (docs/dev/api-differences.md).
 */
import type { RequestContext } from '../context.js';
import type { GroupRec, SectionRec, ShareLinkRec, SiteRec, SiteSpaceRec } from '../site-records.js';
import { linksIn, type ExternalLinkRec } from '../site-external-links.js';
import { siteSectionGroups, siteSections } from '../site-records.js';
import { groupsInOrder, isDefaultSiteSpace, siteSpaceCount, siteSpacesOf } from '../site-structure.js';
import { isOrgAdmin, permissionFlags } from './common.js';
import { hostedSiteUrl, requireSpaceRecord, siteUrl } from './site-common.js';
import { presentSpace } from './spaces.js';

type Obj = Record<string, unknown>;

const SITE_PERMISSIONS = [
  'view',
  'access',
  'edit',
  'create',
  'admin',
  'installIntegration',
  'viewAdaptiveSchema',
  'editAdaptiveSchema',
] as const;

export function presentSite(ctx: RequestContext, site: SiteRec): Obj {
  const base = `/orgs/${site.orgId}/sites/${site.id}`;
  return {
    object: 'site',
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
    ...(site.hostname !== undefined ? { hostname: site.hostname } : {}),
    ...(site.basename !== undefined ? { basename: site.basename } : {}),
    ...(site.proxy !== undefined ? { proxy: { origin: site.proxy, target: hostedSiteUrl(ctx, site) } } : {}),
    visibility: site.visibility,
    defaultLevel: site.defaultLevel ?? null,
    permissions: permissionFlags(isOrgAdmin(ctx, site.orgId), SITE_PERMISSIONS, ['view', 'access']),
    published: site.published,
    siteSpaces: siteSpaceCount(ctx.store, site),
    createdAt: site.createdAt,
    adaptiveContent: { enabled: site.adaptiveContent },
    ...(site.styleguide !== undefined ? { styleguide: { kind: 'space', space: site.styleguide } } : {}),
    ...(site.gitSync !== undefined ? { gitSync: structuredClone(site.gitSync) } : {}),
    agentsContext: site.agentsContext,
    features: [],
    urls: {
      location: ctx.apiUrl(base),
      app: ctx.appUrl(`/o/${site.orgId}/sites/${site.id}`),
      preview: `https://preview.sandbox.test/sites/${site.id}`,
      ...(site.published ? { published: siteUrl(ctx, site) } : {}),
    },
  };
}

function sectionUrl(ctx: RequestContext, site: SiteRec, section: SectionRec | undefined): string {
  const root = siteUrl(ctx, site);
  return section === undefined || site.defaultSection === section.id
    ? root
    : `${root}/${encodeURIComponent(section.path)}`;
}

export function presentSiteSpace(ctx: RequestContext, site: SiteRec, ss: SiteSpaceRec): Obj {
  const space = requireSpaceRecord(ctx, ss.spaceId);
  const isDefault = isDefaultSiteSpace(ctx.store, site, ss);
  const section = ss.section === undefined ? undefined : siteSections(ctx.store).get(ss.section);
  const at = sectionUrl(ctx, site, section);
  return {
    object: 'site-space',
    id: ss.id,
    path: ss.path,
    ...(ss.section !== undefined ? { section: ss.section } : {}),
    space: presentSpace(ctx, space),
    title: ss.title ?? space.title,
    default: isDefault,
    ...(ss.condition !== undefined ? { condition: ss.condition } : {}),
    ...(ss.pageId !== undefined ? { pageId: ss.pageId } : {}),
    draft: ss.draft ?? false,
    ...(ss.hidden !== undefined ? { hidden: ss.hidden } : {}),
    urls: site.published ? { published: isDefault ? at : `${at}/${encodeURIComponent(ss.path)}` } : {},
  };
}

/** `groupId`: the containing group (callers listing many sections compute it once with sectionGroupIndex). */
export function presentSection(
  ctx: RequestContext,
  site: SiteRec,
  section: SectionRec,
  groupId: string | undefined,
): Obj {
  return {
    object: 'site-section',
    id: section.id,
    title: section.title,
    ...(section.localizedTitle !== undefined ? { localizedTitle: { ...section.localizedTitle } } : {}),
    ...(section.description !== undefined ? { description: section.description } : {}),
    ...(section.localizedDescription !== undefined
      ? { localizedDescription: { ...section.localizedDescription } }
      : {}),
    default: site.defaultSection === section.id,
    draft: section.draft ?? false,
    path: section.path,
    ...(section.condition !== undefined ? { condition: section.condition } : {}),
    ...(groupId !== undefined ? { sectionGroup: groupId } : {}),
    siteSpaces: siteSpacesOf(ctx.store, section.siteSpaces).map((ss) => presentSiteSpace(ctx, site, ss)),
    urls: site.published ? { published: sectionUrl(ctx, site, section) } : {},
    ...(section.icon !== undefined ? { icon: section.icon } : {}),
  };
}

/** section id → id of its group, for every grouped section of the site. */
export function sectionGroupIndex(ctx: RequestContext, site: SiteRec): Map<string, string> {
  return new Map(groupsInOrder(ctx.store, site).flatMap((g) => g.sections.map((s) => [s, g.id] as const)));
}

export function presentGroup(ctx: RequestContext, site: SiteRec, group: GroupRec): Obj {
  const sections = group.sections.map((id) => {
    const s = siteSections(ctx.store).get(id);
    if (!s) throw new Error(`store is inconsistent: section ${id} of group ${group.id} is missing`);
    return presentSection(ctx, site, s, group.id);
  });
  const nested = (group.groups ?? []).map((id) => {
    const g = siteSectionGroups(ctx.store).get(id);
    if (!g) throw new Error(`store is inconsistent: group ${id} nested in group ${group.id} is missing`);
    return presentGroup(ctx, site, g);
  });
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    ...(group.localizedTitle !== undefined ? { localizedTitle: { ...group.localizedTitle } } : {}),
    ...(group.icon !== undefined ? { icon: group.icon } : {}),
    ...(group.parent !== undefined ? { sectionGroup: group.parent } : {}),
    draft: group.draft ?? false,
    sections,
    children: [...sections, ...nested, ...linksIn(ctx.store, site.id, group.id).map(presentExternalLink)],
  };
}

export function presentExternalLink(l: ExternalLinkRec): Obj {
  return {
    object: 'site-external-link',
    id: l.id,
    title: l.title,
    ...(l.localizedTitle !== undefined ? { localizedTitle: { ...l.localizedTitle } } : {}),
    ...(l.description !== undefined ? { description: l.description } : {}),
    ...(l.localizedDescription !== undefined ? { localizedDescription: { ...l.localizedDescription } } : {}),
    ...(l.icon !== undefined ? { icon: l.icon } : {}),
    url: l.url,
    ...(l.group !== undefined ? { sectionGroup: l.group } : {}),
    draft: l.draft ?? false,
    ...(l.condition !== undefined ? { condition: l.condition } : {}),
  };
}

/** The top level of a site with sections: its sections and groups in order, then its top-level external links. */
export function presentTopLevel(ctx: RequestContext, site: SiteRec): Obj[] {
  const items = site.nav.map((n) => {
    if (n.type === 'group') {
      const group = siteSectionGroups(ctx.store).get(n.id);
      if (!group) throw new Error(`store is inconsistent: group ${n.id} is missing`);
      return presentGroup(ctx, site, group);
    }
    const section = siteSections(ctx.store).get(n.id);
    if (!section) throw new Error(`store is inconsistent: section ${n.id} is missing`);
    return presentSection(ctx, site, section, undefined);
  });
  return [...items, ...linksIn(ctx.store, site.id, undefined).map(presentExternalLink)];
}

export function presentShareLink(ctx: RequestContext, site: SiteRec, link: ShareLinkRec): Obj {
  return {
    object: 'share-link',
    id: link.id,
    name: link.name,
    active: link.active,
    createdAt: link.createdAt,
    urls: { published: `${siteUrl(ctx, site)}?share=${encodeURIComponent(link.secret)}` },
  };
}
