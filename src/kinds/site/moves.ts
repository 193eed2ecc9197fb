/**
 * Minimal move sequences that turn a container's predicted order into the desired one. The predicted order is
 * a list of slots: a slot holds one item (known position) or several items created concurrently (their order
 * among themselves is unknown). The items kept in place are a longest subsequence that is increasing in the
 * desired order and takes at most one item per slot; every other desired item is moved next to an already
 * placed neighbour, so the result is right whatever order the concurrent creates ended in.
 */

/** Items of a container; a slot of several items = order unknown. */
export type Slot = string[];

export interface Move {
  item: string;
  position: 'before' | 'after';
  anchor: string;
}

/** Whether `item` may be moved relative to `anchor` (e.g. a section cannot be placed next to a group). */
export type CanAnchor = (item: string, anchor: string) => boolean;

const always: CanAnchor = () => true;

/** The kept items: longest increasing (by desired index) subsequence, at most one per slot. */
export function keptItems(current: readonly Slot[], desired: readonly string[]): Set<string> {
  const index = new Map(desired.map((d, i) => [d, i]));
  const flat: { item: string; slot: number; at: number }[] = [];
  current.forEach((slot, s) => {
    for (const item of slot) {
      const at = index.get(item);
      if (at !== undefined) flat.push({ item, slot: s, at });
    }
  });
  const best: number[] = [];
  const prev: number[] = [];
  let end = -1;
  flat.forEach((x, i) => {
    best[i] = 1;
    prev[i] = -1;
    for (let j = 0; j < i; j++) {
      const y = flat[j]!;
      if (y.slot < x.slot && y.at < x.at && best[j]! + 1 > best[i]!) {
        best[i] = best[j]! + 1;
        prev[i] = j;
      }
    }
    if (end < 0 || best[i]! > best[end]!) end = i;
  });
  const kept = new Set<string>();
  for (let i = end; i >= 0; i = prev[i]!) kept.add(flat[i]!.item);
  return kept;
}

/**
 * Moves placing every desired item not in `kept`, each next to a desired neighbour already in its final
 * relative place. Undefined when some item has no usable neighbour.
 */
export function placeRest(desired: readonly string[], kept: ReadonlySet<string>, canAnchor: CanAnchor = always): Move[] | undefined {
  const placed = new Set(kept);
  const moves: Move[] = [];
  if (placed.size === 0 && desired.length > 0) return undefined;
  let progress = true;
  while (progress && placed.size < desired.length) {
    progress = false;
    desired.forEach((item, i) => {
      const anchor = desired[i - 1];
      if (placed.has(item) || anchor === undefined || !placed.has(anchor) || !canAnchor(item, anchor)) return;
      moves.push({ item, position: 'after', anchor });
      placed.add(item);
      progress = true;
    });
    for (let i = desired.length - 1; i >= 0; i--) {
      const item = desired[i]!;
      const anchor = desired[i + 1];
      if (placed.has(item) || anchor === undefined || !placed.has(anchor) || !canAnchor(item, anchor)) continue;
      moves.push({ item, position: 'before', anchor });
      placed.add(item);
      progress = true;
    }
  }
  return placed.size === desired.length ? moves : undefined;
}

/** The minimal moves for one container, or undefined when the anchor rule makes them impossible. */
export function planMoves(current: readonly Slot[], desired: readonly string[], canAnchor: CanAnchor = always): Move[] | undefined {
  return placeRest(desired, keptItems(current, desired), canAnchor);
}

/**
 * Top level of a site: sections may only be placed next to sections, groups next to anything. When the
 * minimal plan needs a section next to a group, order the sections among themselves first, then place every
 * group.
 */
export function planTopLevelMoves(current: readonly Slot[], desired: readonly string[], isGroup: (item: string) => boolean): Move[] | undefined {
  const canAnchor: CanAnchor = (item, anchor) => isGroup(item) || !isGroup(anchor);
  const minimal = planMoves(current, desired, canAnchor);
  if (minimal) return minimal;
  const sections = desired.filter((d) => !isGroup(d));
  const first = planMoves(
    current.map((slot) => slot.filter((x) => !isGroup(x))).filter((slot) => slot.length > 0),
    sections,
  );
  if (!first) return undefined;
  const second = placeRest(desired, new Set(sections), canAnchor);
  return second ? [...first, ...second] : undefined;
}
