/**
 * What the official spec adds to a site's navigation (docs/dev/api-differences.md "What the official client meets"):
 * section groups nested in groups (`parent` on create, `parentSectionGroupId` on PATCH), a section regrouped
 * through its own PATCH (`siteSectionGroupId`), and the deprecated `/move` operations without `position`, which
 * move the item to the end of its container. Like site-structure.ts: check first, change second.
 */
import { badRequest } from './http.js';
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './site-records.js';
import { siteSectionGroups, siteSections, sites } from './site-records.js';
import { containerOf, groupOfSection } from './site-nav.js';
import { detachSection } from './site-structure.js';
import type { SandboxStore } from './store.js';

function requireGroupIn(store: SandboxStore, site: SiteRec, id: string, path: string): GroupRec {
  const group = siteSectionGroups(store).get(id);
  if (group?.siteId !== site.id) throw badRequest(`${path}: section group "${id}" not found in site "${site.id}"`);
  return group;
}

/** The top-level group a group sits in (itself at the top level). */
function topLevelGroupOf(store: SandboxStore, group: GroupRec): GroupRec {
  let g = group;
  while (g.parent !== undefined) g = siteSectionGroups(store).get(g.parent) ?? g;
  return g;
}

/** Put `item` into the top level right after the top-level item `after` (absent: at the end). */
function insertTopLevel(site: SiteRec, item: SiteRec['nav'][number], after: string | undefined): void {
  const at = after === undefined ? -1 : site.nav.findIndex((n) => n.id === after);
  if (at < 0) site.nav.push(item);
  else site.nav.splice(at + 1, 0, item);
}

/**
 * `siteSectionGroupId` on a section's PATCH: a group id moves the section to the end of that group, null puts a
 * grouped section back at the top level right after its (top-level) group, as removing it from the group does.
 */
export function regroupSection(store: SandboxStore, site: SiteRec, section: SectionRec, groupId: string | null): void {
  const current = groupOfSection(store, site, section.id);
  if (groupId === null) {
    if (!current) return;
    const after = topLevelGroupOf(store, current).id;
    detachSection(store, site, section.id);
    insertTopLevel(site, { type: 'section', id: section.id }, after);
  } else {
    const target = requireGroupIn(store, site, groupId, 'body.siteSectionGroupId');
    if (current?.id === target.id) return;
    detachSection(store, site, section.id);
    const fresh = siteSectionGroups(store).get(target.id) ?? target; // detaching may have rewritten it
    fresh.sections = [...fresh.sections, section.id];
    siteSectionGroups(store).put(fresh);
  }
  sites(store).put(site);
}

/** Take a group out of its place (the top level, or its parent's nested groups). */
function detachGroup(store: SandboxStore, site: SiteRec, group: GroupRec): void {
  const parent = group.parent === undefined ? undefined : siteSectionGroups(store).get(group.parent);
  if (parent) {
    parent.groups = (parent.groups ?? []).filter((id) => id !== group.id);
    siteSectionGroups(store).put(parent);
  } else {
    site.nav = site.nav.filter((n) => !(n.type === 'group' && n.id === group.id));
  }
}

/**
 * `parentSectionGroupId` on a group's PATCH: a group id nests the group at the end of that group's nested
 * groups (not into itself or a group nested in it ⇒ 400), null puts it at the top level right after its former
 * top-level ancestor.
 */
export function reparentGroup(store: SandboxStore, site: SiteRec, group: GroupRec, parentId: string | null): GroupRec {
  if (parentId === (group.parent ?? null)) return group;
  const next: GroupRec = { ...group };
  delete next.parent;
  if (parentId === null) {
    const after = topLevelGroupOf(store, group).id;
    detachGroup(store, site, group);
    insertTopLevel(site, { type: 'group', id: group.id }, after);
  } else {
    const target = requireGroupIn(store, site, parentId, 'body.parentSectionGroupId');
    for (
      let g: GroupRec | undefined = target;
      g;
      g = g.parent === undefined ? undefined : siteSectionGroups(store).get(g.parent)
    ) {
      if (g.id === group.id)
        throw badRequest(
          `body.parentSectionGroupId: cannot nest section group "${group.id}" in itself or a group nested in it ("${parentId}")`,
        );
    }
    detachGroup(store, site, group);
    const fresh = siteSectionGroups(store).get(target.id) ?? target;
    fresh.groups = [...(fresh.groups ?? []), group.id];
    siteSectionGroups(store).put(fresh);
    next.parent = target.id;
  }
  siteSectionGroups(store).put(next);
  sites(store).put(site);
  return next;
}

const toEnd = (list: string[], id: string): void => {
  const at = list.indexOf(id);
  if (at >= 0) list.splice(at, 1);
  list.push(id);
};

/** The site's top-level navigation item `id` moved last. */
function lastAtTopLevel(site: SiteRec, id: string): void {
  const item = site.nav.find((n) => n.id === id);
  if (item) site.nav = [...site.nav.filter((n) => n !== item), item];
}

/** A deprecated `/move` without `position`: the section goes last in its container (the top level or its group). */
export function moveSectionToEnd(store: SandboxStore, site: SiteRec, section: SectionRec): void {
  const group = groupOfSection(store, site, section.id);
  if (group) {
    toEnd(group.sections, section.id);
    siteSectionGroups(store).put(group);
  } else {
    lastAtTopLevel(site, section.id);
  }
  sites(store).put(site);
}

/** …the group goes last among the top-level items, or among its parent's nested groups. */
export function moveGroupToEnd(store: SandboxStore, site: SiteRec, group: GroupRec): void {
  const parent = group.parent === undefined ? undefined : siteSectionGroups(store).get(group.parent);
  if (parent) {
    parent.groups = [...(parent.groups ?? [])];
    toEnd(parent.groups, group.id);
    siteSectionGroups(store).put(parent);
  } else {
    lastAtTopLevel(site, group.id);
  }
  sites(store).put(site);
}

/** …the site space goes last in its section (or the site root). */
export function moveSiteSpaceToEnd(store: SandboxStore, site: SiteRec, ss: SiteSpaceRec): void {
  toEnd(containerOf(store, site, ss), ss.id);
  const section = ss.section === undefined ? undefined : siteSections(store).get(ss.section);
  if (section) siteSections(store).put(section);
  else sites(store).put(site);
}
