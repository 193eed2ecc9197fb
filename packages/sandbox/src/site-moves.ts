/**
 * Positioned moves of a site's structure (the deprecated `…/move` operations and the official sort): a section
 * or a group among its siblings, a site space next to another (into that one's section if it differs).
 * Moves to the end (no `position`) are in site-groups.ts.
 */
import { badRequest } from './http.js';
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './site-records.js';
import { siteSectionGroups, siteSections, siteSpaces, sites, uniquePath } from './site-records.js';
import { containerOf, get, groupOfSection, pathsOf, reposition, type Position } from './site-nav.js';
import type { SandboxStore } from './store.js';

/** Reorder a section among the items of its own container (top level or its group). */
export function moveSection(store: SandboxStore, site: SiteRec, section: SectionRec, pos: Position): void {
  if (pos.ref === section.id) throw badRequest(`${pos.path}: a section cannot move relative to itself`);
  if (siteSections(store).get(pos.ref)?.siteId !== site.id)
    throw badRequest(`${pos.path}: section "${pos.ref}" not found in site "${site.id}"`);
  const group = groupOfSection(store, site, section.id);
  if (group?.id !== groupOfSection(store, site, pos.ref)?.id)
    throw badRequest(
      `${pos.path}: section "${pos.ref}" is in a different container (a move only reorders; use the section-group endpoints to change membership)`,
    );
  if (group) {
    reposition(group.sections, section.id, pos.ref, pos.where);
    siteSectionGroups(store).put(group);
  } else {
    moveTopLevel(site, section.id, pos);
  }
  sites(store).put(site);
}

/** Reorder a group among the top-level items. */
export function moveGroup(
  store: SandboxStore,
  site: SiteRec,
  group: GroupRec,
  pos: Position,
  refType: 'site-section' | 'site-section-group',
): void {
  if (pos.ref === group.id) throw badRequest(`${pos.path}: a section group cannot move relative to itself`);
  const parent = group.parent === undefined ? undefined : siteSectionGroups(store).get(group.parent);
  if (parent) {
    // A nested group (official spec) reorders among its parent's nested groups.
    const list = [...(parent.groups ?? [])];
    if (refType !== 'site-section-group' || !list.includes(pos.ref))
      throw badRequest(`${pos.path}: "${pos.ref}" is not a section group nested in "${parent.id}" like "${group.id}"`);
    reposition(list, group.id, pos.ref, pos.where);
    siteSectionGroups(store).put({ ...parent, groups: list });
    return;
  }
  const ref = site.nav.find((n) => n.id === pos.ref);
  if (!ref || (refType === 'site-section-group' && ref.type !== 'group'))
    throw badRequest(
      `${pos.path}: "${pos.ref}" is not a top-level ${refType === 'site-section-group' ? 'section group' : 'section or section group'} of site "${site.id}"`,
    );
  moveTopLevel(site, group.id, pos);
  sites(store).put(site);
}

function moveTopLevel(site: SiteRec, id: string, pos: Position): void {
  const ids = site.nav.map((n) => n.id);
  reposition(ids, id, pos.ref, pos.where);
  const byId = new Map(site.nav.map((n) => [n.id, n]));
  site.nav = ids.map((x) => get(byId.get(x), `nav item ${x}`));
}

/** Move a site space next to another; next to one of another section ⇒ it moves into that section. */
export function moveSiteSpace(store: SandboxStore, site: SiteRec, ss: SiteSpaceRec, pos: Position): SiteSpaceRec {
  if (pos.ref === ss.id) throw badRequest(`${pos.path}: a site space cannot move relative to itself`);
  const ref = siteSpaces(store).get(pos.ref);
  if (ref?.siteId !== site.id) throw badRequest(`${pos.path}: site space "${pos.ref}" not found in site "${site.id}"`);
  if (ref.section === ss.section) {
    const list = containerOf(store, site, ss);
    reposition(list, ss.id, ref.id, pos.where);
    if (ss.section) siteSections(store).put(get(siteSections(store).get(ss.section), `section ${ss.section}`));
    else sites(store).put(site);
    return ss;
  }
  // Site spaces of one site are either all at the root or all in sections, so both sections exist here.
  const from = get(siteSections(store).get(ss.section ?? ''), `section ${ss.section}`);
  const to = get(siteSections(store).get(ref.section ?? ''), `section ${ref.section}`);
  if (from.defaultSiteSpace === ss.id)
    throw badRequest(
      `cannot move site space "${ss.id}" out of section "${from.id}": it is the section's default site space (make another one the default first)`,
    );
  from.siteSpaces = from.siteSpaces.filter((x) => x !== ss.id);
  const moved: SiteSpaceRec = { ...ss, section: to.id, path: uniquePath(ss.path, pathsOf(store, to.siteSpaces)) };
  reposition(to.siteSpaces, ss.id, ref.id, pos.where);
  siteSections(store).put(from);
  siteSections(store).put(to);
  return siteSpaces(store).put(moved);
}
