/**
 * Reading a site's navigation (site-structure.ts changes it): its groups, sections and site spaces in navigation
 * order, which container holds a site space, the paths a container holds, and where a move puts an item.
 */
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './site-records.js';
import { siteSectionGroups, siteSections, siteSpaces } from './site-records.js';
import type { SandboxStore } from './store.js';

export type Where = 'before' | 'after';
/** A validated move: put the item before or after the referenced item (`ref`, an id). */
export interface Position {
  where: Where;
  ref: string;
  /** Body path of the reference, for error messages, e.g. `body.position.after.siteSection`. */
  path: string;
}

export const get = <T>(row: T | undefined, what: string): T => {
  if (row === undefined) throw new Error(`store is inconsistent: ${what} is referenced but missing`);
  return row;
};

export const hasSections = (site: SiteRec): boolean => site.defaultSection !== undefined;

/** A group and the groups nested in it (official spec: `parent`), depth first, parents first. */
function groupTree(store: SandboxStore, id: string): GroupRec[] {
  const group = get(siteSectionGroups(store).get(id), `group ${id}`);
  return [group, ...(group.groups ?? []).flatMap((child) => groupTree(store, child))];
}

/** Every group of the site in navigation order (a nested group right after its parent's earlier children). */
export function groupsInOrder(store: SandboxStore, site: SiteRec): GroupRec[] {
  return site.nav.filter((n) => n.type === 'group').flatMap((n) => groupTree(store, n.id));
}

/** Sections flattened in navigation order (a group's sections, then its nested groups', at the group's place). */
export function sectionsInOrder(store: SandboxStore, site: SiteRec): SectionRec[] {
  const ids = site.nav.flatMap((n) =>
    n.type === 'section' ? [n.id] : groupTree(store, n.id).flatMap((g) => g.sections),
  );
  return ids.map((id) => get(siteSections(store).get(id), `section ${id}`));
}

export function siteSpacesOf(store: SandboxStore, ids: readonly string[]): SiteSpaceRec[] {
  return ids.map((id) => get(siteSpaces(store).get(id), `site space ${id}`));
}

/** Site spaces in navigation order: section order, then order within the section; or the root list. */
export function siteSpacesInOrder(store: SandboxStore, site: SiteRec): SiteSpaceRec[] {
  const ids = hasSections(site) ? sectionsInOrder(store, site).flatMap((s) => s.siteSpaces) : site.rootSpaces;
  return siteSpacesOf(store, ids);
}

export function siteSpaceCount(store: SandboxStore, site: SiteRec): number {
  return hasSections(site)
    ? sectionsInOrder(store, site).reduce((n, s) => n + s.siteSpaces.length, 0)
    : site.rootSpaces.length;
}

/** The group holding a section, if any. */
export function groupOfSection(store: SandboxStore, site: SiteRec, sectionId: string): GroupRec | undefined {
  return groupsInOrder(store, site).find((g) => g.sections.includes(sectionId));
}

/** Whether a site space is the default of its container (its section, or the root). */
export function isDefaultSiteSpace(store: SandboxStore, site: SiteRec, ss: SiteSpaceRec): boolean {
  if (ss.section === undefined) return site.defaultRootSpace === ss.id;
  return siteSections(store).get(ss.section)?.defaultSiteSpace === ss.id;
}

export function pathsOf(store: SandboxStore, ids: readonly string[], except?: string): Set<string> {
  return new Set(
    siteSpacesOf(store, ids)
      .filter((s) => s.id !== except)
      .map((s) => s.path),
  );
}

/** The ordered id list a site space lives in. */
export function containerOf(store: SandboxStore, site: SiteRec, ss: SiteSpaceRec): string[] {
  return ss.section === undefined
    ? site.rootSpaces
    : get(siteSections(store).get(ss.section), `section ${ss.section}`).siteSpaces;
}

/** Remove `item` from `list` and insert it before/after `ref` (both in `list` after removal). */
export function reposition(list: string[], item: string, ref: string, where: Where): void {
  const from = list.indexOf(item);
  if (from >= 0) list.splice(from, 1);
  const at = list.indexOf(ref);
  list.splice(where === 'before' ? at : at + 1, 0, item);
}
