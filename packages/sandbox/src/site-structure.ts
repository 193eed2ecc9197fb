/**
 * Changes to the navigation model of a site (site-nav.ts reads it): ordered top-level sections and groups, sections inside groups, site
 * spaces inside sections (or at the root of a site without sections), and the server's own rules
 * (docs/dev/api-differences.md "Sites"): the first section is the default one and takes in the root site spaces,
 * defaults cannot be deleted, paths are unique per container, moves stay inside their container except site
 * spaces, which change section by moving next to a site space of another section.
 *
 * Every operation checks first and changes second, so a 400 leaves the store untouched.
 */
import { badRequest } from './http.js';
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './site-records.js';
import { siteSectionGroups, siteSections, siteSpaces, sites, slugify, uniquePath } from './site-records.js';
import { dropSiteLinks, releaseGroupLinks } from './site-external-links.js';
import {
  containerOf,
  get,
  groupOfSection,
  groupsInOrder,
  hasSections,
  pathsOf,
  sectionsInOrder,
  siteSpacesInOrder,
  siteSpacesOf,
} from './site-nav.js';
import type { SandboxStore } from './store.js';

// The routes take the navigation's reads from here too, beside its changes.
export {
  groupOfSection,
  groupsInOrder,
  hasSections,
  isDefaultSiteSpace,
  sectionsInOrder,
  siteSpaceCount,
  siteSpacesInOrder,
  siteSpacesOf,
} from './site-nav.js';
export type { Position } from './site-nav.js';

export interface NewSection {
  title: string;
  icon?: string;
  spaceId: string;
  spaceTitle: string;
}

/** Append a section holding one site space for `spaceId`. The first section becomes the default one. */
export function addSection(store: SandboxStore, site: SiteRec, input: NewSection): SectionRec {
  const id = store.nextId('sec', (x) => siteSections(store).has(x));
  const ssId = store.nextId('ss', (x) => siteSpaces(store).has(x));
  const taken = new Set(sectionsInOrder(store, site).map((s) => s.path));
  const section: SectionRec = {
    id,
    siteId: site.id,
    title: input.title,
    path: uniquePath(slugify(input.title, 'section'), taken),
    ...(input.icon !== undefined ? { icon: input.icon } : {}),
    siteSpaces: [ssId],
    defaultSiteSpace: ssId,
  };
  siteSpaces(store).put({
    id: ssId,
    siteId: site.id,
    spaceId: input.spaceId,
    path: slugify(input.spaceTitle, 'space'),
    section: id,
  });
  site.nav.push({ type: 'section', id });
  if (!hasSections(site)) {
    site.defaultSection = id;
    for (const ss of siteSpacesOf(store, site.rootSpaces)) {
      siteSpaces(store).put({ ...ss, section: id, path: uniquePath(ss.path, pathsOf(store, section.siteSpaces)) });
      section.siteSpaces.push(ss.id);
    }
    site.rootSpaces = [];
    delete site.defaultRootSpace;
  }
  siteSections(store).put(section);
  sites(store).put(site);
  return section;
}

/** Append a site space to `section` (absent: the default section, or the root of a site without sections). */
export function addSiteSpace(
  store: SandboxStore,
  site: SiteRec,
  spaceId: string,
  spaceTitle: string,
  section?: SectionRec,
): SiteSpaceRec {
  const target =
    section ??
    (hasSections(site) ? get(siteSections(store).get(site.defaultSection ?? ''), 'default section') : undefined);
  const list = target ? target.siteSpaces : site.rootSpaces;
  const id = store.nextId('ss', (x) => siteSpaces(store).has(x));
  const ss: SiteSpaceRec = {
    id,
    siteId: site.id,
    spaceId,
    path: uniquePath(slugify(spaceTitle, 'space'), pathsOf(store, list)),
    ...(target ? { section: target.id } : {}),
  };
  siteSpaces(store).put(ss);
  list.push(id);
  if (target) siteSections(store).put(target);
  else if (site.defaultRootSpace === undefined) site.defaultRootSpace = id;
  sites(store).put(site);
  return ss;
}

/** A path change of a site space: unique within its container. */
export function checkSiteSpacePath(store: SandboxStore, site: SiteRec, ss: SiteSpaceRec, path: string): void {
  if (pathsOf(store, containerOf(store, site, ss), ss.id).has(path))
    throw badRequest(
      `body.path: "${path}" is already used by another site space of the same ${ss.section ? 'section' : 'site root'}`,
    );
}

/** A path change of a section: unique within the site. */
export function checkSectionPath(store: SandboxStore, site: SiteRec, section: SectionRec, path: string): void {
  if (sectionsInOrder(store, site).some((s) => s.id !== section.id && s.path === path))
    throw badRequest(`body.path: "${path}" is already used by another section of the site`);
}

export function deleteSection(store: SandboxStore, site: SiteRec, section: SectionRec): void {
  if (site.defaultSection === section.id)
    throw badRequest(`cannot delete the default section "${section.id}" (make another section the default first)`);
  detachSection(store, site, section.id);
  for (const id of section.siteSpaces) siteSpaces(store).delete(id);
  siteSections(store).delete(section.id);
  sites(store).put(site);
}

export function deleteSiteSpace(store: SandboxStore, site: SiteRec, ss: SiteSpaceRec): void {
  if (ss.section !== undefined) {
    const section = get(siteSections(store).get(ss.section), `section ${ss.section}`);
    if (section.defaultSiteSpace === ss.id) {
      throw badRequest(
        section.siteSpaces.length === 1
          ? `cannot delete site space "${ss.id}": it is the only site space of section "${section.id}" (a section keeps at least one; delete the section instead)`
          : `cannot delete site space "${ss.id}": it is the default site space of section "${section.id}" (make another one the default first)`,
      );
    }
    section.siteSpaces = section.siteSpaces.filter((x) => x !== ss.id);
    siteSections(store).put(section);
  } else {
    if (site.defaultRootSpace === ss.id && site.rootSpaces.length > 1)
      throw badRequest(
        `cannot delete site space "${ss.id}": it is the default site space of the site (make another one the default first)`,
      );
    site.rootSpaces = site.rootSpaces.filter((x) => x !== ss.id);
    if (site.defaultRootSpace === ss.id) delete site.defaultRootSpace;
    sites(store).put(site);
  }
  siteSpaces(store).delete(ss.id);
}

/** Take a section out of its place (the top level or its group). */
export function detachSection(store: SandboxStore, site: SiteRec, sectionId: string): void {
  const group = groupOfSection(store, site, sectionId);
  if (group) {
    group.sections = group.sections.filter((x) => x !== sectionId);
    siteSectionGroups(store).put(group);
  } else {
    site.nav = site.nav.filter((n) => !(n.type === 'section' && n.id === sectionId));
  }
}

/** Resolve section ids named in a body; 400 naming `path[i]` for unknown or repeated ids. */
export function requireSectionIds(store: SandboxStore, site: SiteRec, ids: readonly string[], path: string): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (siteSections(store).get(id)?.siteId !== site.id)
      throw badRequest(`${path}[${i}]: section "${id}" not found in site "${site.id}"`);
    if (seen.has(id)) throw badRequest(`${path}[${i}]: section "${id}" is listed twice`);
    seen.add(id);
  });
}

/**
 * Append a new group at the end of the top level, or of the groups nested in `group.parent` (official spec);
 * the listed sections move into it in order.
 */
export function createGroup(
  store: SandboxStore,
  site: SiteRec,
  group: GroupRec,
  sectionIds: readonly string[],
): GroupRec {
  requireSectionIds(store, site, sectionIds, 'body.sections');
  const parent = group.parent === undefined ? undefined : siteSectionGroups(store).get(group.parent);
  if (group.parent !== undefined && parent?.siteId !== site.id)
    throw badRequest(`body.parent: section group "${group.parent}" not found in site "${site.id}"`);
  for (const id of sectionIds) detachSection(store, site, id);
  group.sections = [...sectionIds];
  siteSectionGroups(store).put(group);
  if (parent) {
    parent.groups = [...(parent.groups ?? []), group.id];
    siteSectionGroups(store).put(parent);
  } else {
    site.nav.push({ type: 'group', id: group.id });
  }
  sites(store).put(site);
  return group;
}

/** Append a section to a group (out of the top level or another group); already in it ⇒ unchanged. */
export function addSectionToGroup(store: SandboxStore, site: SiteRec, group: GroupRec, sectionId: string): void {
  if (siteSections(store).get(sectionId)?.siteId !== site.id)
    throw badRequest(`body.sectionId: section "${sectionId}" not found in site "${site.id}"`);
  if (group.sections.includes(sectionId)) return;
  detachSection(store, site, sectionId);
  group.sections.push(sectionId);
  siteSectionGroups(store).put(group);
  sites(store).put(site);
}

/** Put a grouped section back at the top level right after its group; false when it was not in the group. */
export function removeSectionFromGroup(
  store: SandboxStore,
  site: SiteRec,
  group: GroupRec,
  sectionId: string,
): boolean {
  if (!group.sections.includes(sectionId)) return false;
  group.sections = group.sections.filter((x) => x !== sectionId);
  siteSectionGroups(store).put(group);
  const at = site.nav.findIndex((n) => n.type === 'group' && n.id === group.id);
  site.nav.splice(at + 1, 0, { type: 'section', id: sectionId });
  sites(store).put(site);
  return true;
}

/** Delete a group; its sections and nested groups return to its place (the top level or its parent), in order. */
export function deleteGroup(store: SandboxStore, site: SiteRec, group: GroupRec): void {
  const nested = group.groups ?? [];
  for (const id of nested) {
    const child = get(siteSectionGroups(store).get(id), `group ${id}`);
    const moved: GroupRec = { ...child };
    delete moved.parent;
    if (group.parent !== undefined) moved.parent = group.parent;
    siteSectionGroups(store).put(moved);
  }
  const parent = group.parent === undefined ? undefined : siteSectionGroups(store).get(group.parent);
  if (parent) {
    parent.sections = [...parent.sections, ...group.sections];
    parent.groups = (parent.groups ?? []).flatMap((id) => (id === group.id ? nested : [id]));
    siteSectionGroups(store).put(parent);
  } else {
    const back = [
      ...group.sections.map((id) => ({ type: 'section' as const, id })),
      ...nested.map((id) => ({ type: 'group' as const, id })),
    ];
    site.nav = site.nav.flatMap((n) => (n.type === 'group' && n.id === group.id ? back : [n]));
  }
  releaseGroupLinks(store, site.id, group.id, group.parent);
  siteSectionGroups(store).delete(group.id);
  sites(store).put(site);
}

/** Delete a site and everything below it (sections, groups, site spaces, share links are the caller's). */
export function deleteSiteStructure(store: SandboxStore, site: SiteRec): void {
  for (const ss of siteSpacesInOrder(store, site)) siteSpaces(store).delete(ss.id);
  for (const s of sectionsInOrder(store, site)) siteSections(store).delete(s.id);
  for (const g of groupsInOrder(store, site)) siteSectionGroups(store).delete(g.id);
  dropSiteLinks(store, site.id);
}

/**
 * The server's own cleanup when a deleted space is purged (7 days after its delete): every site space that
 * showed it goes, a section left without site spaces goes too (a section never stays empty), and defaults
 * move to the first remaining item. Unlike a user's delete, no default rule can refuse it.
 */
export function dropPurgedSpace(store: SandboxStore, spaceId: string): void {
  for (const ss of siteSpaces(store).where((x) => x.spaceId === spaceId)) {
    const site = sites(store).get(ss.siteId);
    siteSpaces(store).delete(ss.id);
    if (!site) continue;
    if (ss.section === undefined) {
      site.rootSpaces = site.rootSpaces.filter((x) => x !== ss.id);
      if (site.defaultRootSpace === ss.id) site.defaultRootSpace = site.rootSpaces[0];
      if (site.defaultRootSpace === undefined) delete site.defaultRootSpace;
      sites(store).put(site);
      continue;
    }
    const section = siteSections(store).get(ss.section);
    if (!section) continue;
    section.siteSpaces = section.siteSpaces.filter((x) => x !== ss.id);
    if (section.siteSpaces.length > 0) {
      if (section.defaultSiteSpace === ss.id) section.defaultSiteSpace = section.siteSpaces[0]!;
      siteSections(store).put(section);
      continue;
    }
    detachSection(store, site, section.id);
    siteSections(store).delete(section.id);
    if (site.defaultSection === section.id) {
      const next = sectionsInOrder(store, site)[0];
      if (next) site.defaultSection = next.id;
      else delete site.defaultSection;
    }
    sites(store).put(site);
  }
}
