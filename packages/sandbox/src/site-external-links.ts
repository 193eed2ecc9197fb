/**
 * A site's external links (official spec): navigation items that open a URL, at the top level of a site with
 * sections or inside a section group (`parent`). The sandbox keeps each link's container and order on the link
 * itself: in its container, the links come after the sections and groups (docs/api-differences.md §8), and the
 * sort reorders them among themselves. Deleting a group moves its links to the group's own container; deleting the
 * site deletes them.
 */
import type { SandboxStore, Table } from './store.js';

export interface ExternalLinkRec {
  id: string;
  siteId: string;
  title: string;
  url: string;
  description?: string;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
  icon?: string;
  condition?: string;
  draft?: boolean;
  /** The section group holding it; absent at the top level. */
  group?: string;
  /** Place among the links of its container (ascending). */
  order: number;
}

export const siteExternalLinks = (s: SandboxStore): Table<ExternalLinkRec> => s.table('siteExternalLinks');

/** The links of one container (a group id, or undefined for the top level), in order. */
export function linksIn(store: SandboxStore, siteId: string, group: string | undefined): ExternalLinkRec[] {
  return siteExternalLinks(store)
    .where((l) => l.siteId === siteId && l.group === group)
    .sort((a, b) => a.order - b.order);
}

/** The next place at the end of a container. */
export function lastOrder(store: SandboxStore, siteId: string, group: string | undefined): number {
  return linksIn(store, siteId, group).reduce((n, l) => Math.max(n, l.order + 1), 0);
}

/** A deleted group's links join its container (its parent group, or the top level), after the links there. */
export function releaseGroupLinks(store: SandboxStore, siteId: string, group: string, into: string | undefined): void {
  let next = lastOrder(store, siteId, into);
  for (const l of linksIn(store, siteId, group)) {
    const moved: ExternalLinkRec = { ...l, order: next++ };
    if (into === undefined) delete moved.group;
    else moved.group = into;
    siteExternalLinks(store).put(moved);
  }
}

export function dropSiteLinks(store: SandboxStore, siteId: string): void {
  for (const l of siteExternalLinks(store).where((x) => x.siteId === siteId)) siteExternalLinks(store).delete(l.id);
}

/** Reorder a container's links (ids in their new order). */
export function saveLinkOrder(store: SandboxStore, ids: readonly string[]): void {
  ids.forEach((id, order) => {
    const l = siteExternalLinks(store).get(id);
    if (l) siteExternalLinks(store).put({ ...l, order });
  });
}
