/**
 * The predicted navigation of a site just before its reorder step: the live order, changed by what the earlier
 * steps of the plan do under the contract's rules (creates append at the end, a new group takes its sections
 * out of where they were, leaving a group puts a section right after the group, joining one appends it).
 * Items are ids or refs; creates that run concurrently form one slot of unknown order.
 */
import type { Slot } from './moves.js';
import type { SiteStructure } from './model.js';

export const TOP = 'top';
export const ROOT = 'root';
export const inGroup = (group: string): string => `group:${group}`;
export const inSection = (section: string): string => `section:${section}`;

export class Layout {
  private readonly containers = new Map<string, Slot[]>();

  /** The live order of a site's structure. */
  static fromLive(s: SiteStructure): Layout {
    const layout = new Layout();
    const top = layout.slots(TOP);
    const emitted = new Set<string>();
    for (const x of s.sections) {
      if (x.group === null) top.push([x.id]);
      else if (!emitted.has(x.group)) {
        emitted.add(x.group);
        top.push([x.group]);
      }
    }
    for (const g of s.groups) {
      if (!emitted.has(g.id)) top.push([g.id]);
      layout.slots(inGroup(g.id)).push(...g.sections.map((id) => [id]));
    }
    for (const ss of s.siteSpaces) layout.slots(ss.section === null ? ROOT : inSection(ss.section)).push([ss.id]);
    return layout;
  }

  slots(container: string): Slot[] {
    let list = this.containers.get(container);
    if (!list) {
      list = [];
      this.containers.set(container, list);
    }
    return list;
  }

  /** Concurrent creates: one slot of unknown order (or a known slot for a single item). */
  appendConcurrent(container: string, items: readonly string[]): void {
    if (items.length > 0) this.slots(container).push([...items]);
  }

  /** Sequential appends (one step's requests run in order). */
  append(container: string, item: string): void {
    this.slots(container).push([item]);
  }

  remove(item: string): void {
    for (const list of this.containers.values()) {
      for (let i = 0; i < list.length; i++) {
        const slot = list[i]!;
        const at = slot.indexOf(item);
        if (at < 0) continue;
        slot.splice(at, 1);
        if (slot.length === 0) list.splice(i, 1);
        return;
      }
    }
  }

  /** Right after `anchor`; inside an unordered slot the item joins that slot (its place there is unknown too). */
  insertAfter(container: string, anchor: string, item: string): void {
    const list = this.slots(container);
    const i = list.findIndex((slot) => slot.includes(anchor));
    if (i < 0) list.push([item]);
    else if (list[i]!.length === 1) list.splice(i + 1, 0, [item]);
    else list[i]!.push(item);
  }

  containerOf(item: string): string | undefined {
    for (const [name, list] of this.containers) if (list.some((slot) => slot.includes(item))) return name;
    return undefined;
  }

  /** Items of a container in predicted order (unordered slots as they are listed). */
  flat(container: string): string[] {
    return this.slots(container).flat();
  }
}
