/**
 * sortSiteStructure (official spec, `PATCH …/sites/{siteId}/structure/sort`): reorder one item of a site's
 * navigation among its siblings. Siblings are the items of one level: the top level of a site with sections
 * (its sections and section groups together), the sections of one group, the site spaces of one section, or the
 * root site spaces of a site without sections. The spec's own words: "Sorting changes sibling order only"; an
 * item never changes container here (that is the deprecated site-space `/move`, or the group endpoints).
 *
 * - item unknown in the site (or of another type than its pointer says) ⇒ 404 (the spec's "No matching item found");
 * - an external link sorts among the external links of its container (the sandbox keeps them after the sections
 *   and groups there);
 * - a reference that is the item itself, unknown, of another type than its pointer says, or not a sibling
 *   ⇒ 400 (the spec's "Invalid move position");
 * - `position: {}` puts the item last among its siblings (the spec: "When not provided the item is moved to the
 *   end").
 * Checks first, changes second: a refused sort leaves the store untouched.
 */
import { badRequest, notFound } from './http.js';
import type { GroupRec, SectionRec, SiteRec, SiteSpaceRec } from './site-records.js';
import { siteSectionGroups, siteSections, siteSpaces, sites } from './site-records.js';
import { containerOf, groupOfSection, reposition, type Where } from './site-nav.js';
import { linksIn, saveLinkOrder, siteExternalLinks, type ExternalLinkRec } from './site-external-links.js';
import type { SandboxStore } from './store.js';

export const STRUCTURE_ITEM_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;
export type StructureItemType = (typeof STRUCTURE_ITEM_TYPES)[number];

export interface StructurePointer {
  type: StructureItemType;
  id: string;
}

/** A validated sort: the item, and where among its siblings (no reference ⇒ last). */
export interface StructureSort {
  item: StructurePointer;
  where?: Where;
  ref?: StructurePointer;
}

export type SortedItem =
  | { type: 'site-external-link'; record: ExternalLinkRec }
  | { type: 'site-space'; record: SiteSpaceRec }
  | { type: 'site-section'; record: SectionRec; group: GroupRec | undefined }
  | { type: 'site-section-group'; record: GroupRec };

const SECTION_TYPE: Record<'section' | 'group', StructureItemType> = {
  section: 'site-section',
  group: 'site-section-group',
};

/** The sibling list of an item: its ids and the type of each sibling, plus how to store a reordered list. */
interface Siblings {
  ids: string[];
  typeOf(id: string): StructureItemType | undefined;
  save(ids: string[]): void;
  /** For messages: "the site spaces of section sec-1", "the top level of site site-1" … */
  name: string;
}

function findItem(store: SandboxStore, site: SiteRec, p: StructurePointer): SortedItem {
  const missing = (): never => {
    throw notFound(`body.item: no ${p.type} "${p.id}" in site "${site.id}"`);
  };
  if (p.type === 'site-space') {
    const record = siteSpaces(store).get(p.id);
    return record?.siteId === site.id ? { type: p.type, record } : missing();
  }
  if (p.type === 'site-section') {
    const record = siteSections(store).get(p.id);
    return record?.siteId === site.id
      ? { type: p.type, record, group: groupOfSection(store, site, record.id) }
      : missing();
  }
  if (p.type === 'site-section-group') {
    const record = siteSectionGroups(store).get(p.id);
    return record?.siteId === site.id ? { type: p.type, record } : missing();
  }
  const link = siteExternalLinks(store).get(p.id);
  return link?.siteId === site.id ? { type: 'site-external-link', record: link } : missing();
}

function siblingsOf(store: SandboxStore, site: SiteRec, item: SortedItem): Siblings {
  if (item.type === 'site-external-link') {
    // The sandbox's model: a container's external links follow its sections and groups, sorted among themselves.
    const group = item.record.group;
    const ids = linksIn(store, site.id, group).map((l) => l.id);
    return {
      ids,
      typeOf: (id) => (ids.includes(id) ? 'site-external-link' : undefined),
      save: (order) => saveLinkOrder(store, order),
      name:
        group === undefined
          ? `the external links of site "${site.id}"`
          : `the external links of section group "${group}"`,
    };
  }
  if (item.type === 'site-space') {
    const list = containerOf(store, site, item.record);
    const section = item.record.section;
    return {
      ids: [...list],
      typeOf: (id) => (list.includes(id) ? 'site-space' : undefined),
      save: (ids) => {
        list.splice(0, list.length, ...ids);
        if (section === undefined) sites(store).put(site);
        else {
          const s = siteSections(store).get(section);
          if (s) siteSections(store).put(s);
        }
      },
      name:
        section === undefined ? `the root site spaces of site "${site.id}"` : `the site spaces of section "${section}"`,
    };
  }
  if (item.type === 'site-section' && item.group) {
    const group = item.group;
    return {
      ids: [...group.sections],
      typeOf: (id) => (group.sections.includes(id) ? 'site-section' : undefined),
      save: (ids) => {
        group.sections = ids;
        siteSectionGroups(store).put(group);
      },
      name: `the sections of section group "${group.id}"`,
    };
  }
  const parent =
    item.type === 'site-section-group' && item.record.parent !== undefined
      ? siteSectionGroups(store).get(item.record.parent)
      : undefined;
  if (parent) {
    // A nested group (official spec `parent`) sorts among its parent's nested groups.
    const list = parent.groups ?? [];
    return {
      ids: [...list],
      typeOf: (id) => (list.includes(id) ? 'site-section-group' : undefined),
      save: (ids) => {
        parent.groups = ids;
        siteSectionGroups(store).put(parent);
      },
      name: `the section groups nested in "${parent.id}"`,
    };
  }
  const types = new Map(site.nav.map((n) => [n.id, SECTION_TYPE[n.type]]));
  return {
    ids: site.nav.map((n) => n.id),
    typeOf: (id) => types.get(id),
    save: (ids) => {
      const byId = new Map(site.nav.map((n) => [n.id, n]));
      site.nav = ids.flatMap((id) => {
        const n = byId.get(id);
        return n ? [n] : [];
      });
      sites(store).put(site);
    },
    name: `the top level of site "${site.id}"`,
  };
}

/** Apply one sort; answers the moved item (for its representation). */
export function sortStructureItem(store: SandboxStore, site: SiteRec, sort: StructureSort): SortedItem {
  const item = findItem(store, site, sort.item);
  const siblings = siblingsOf(store, site, item);
  const ids = [...siblings.ids];
  const { ref, where } = sort;
  if (ref === undefined || where === undefined) {
    ids.splice(ids.indexOf(item.record.id), 1);
    ids.push(item.record.id);
  } else {
    const at = `body.position.${where}`;
    if (ref.id === item.record.id && ref.type === sort.item.type)
      throw badRequest(`${at}: an item cannot be sorted relative to itself`);
    const type = siblings.typeOf(ref.id);
    if (type === undefined)
      throw badRequest(`${at}: ${ref.type} "${ref.id}" is not among ${siblings.name} (sorting only reorders siblings)`);
    if (type !== ref.type) throw badRequest(`${at}: "${ref.id}" is a ${type}, not a ${ref.type}`);
    reposition(ids, item.record.id, ref.id, where);
  }
  siblings.save(ids);
  return item;
}
