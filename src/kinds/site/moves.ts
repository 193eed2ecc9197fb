/**
 * Minimal move sequences that turn a container's predicted order into the desired one. The predicted order is
 * a list of slots: a slot holds one item (known position) or several items created concurrently (their order
 * among themselves is unknown). The items kept in place are a longest subsequence that is increasing in the
 * desired order and takes at most one item per slot; every other desired item is moved next to an already
 * placed neighbour, so the result is right whatever order the concurrent creates ended in. Every item of one
 * container is a sibling of every other (sortSiteStructure places a section next to a group as well), so any
 * neighbour can be the anchor.
 */

/** Items of a container; a slot of several items = order unknown. */
export type Slot = string[];

export interface Move {
  item: string;
  position: 'before' | 'after';
  anchor: string;
}

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
export function placeRest(desired: readonly string[], kept: ReadonlySet<string>): Move[] | undefined {
  const placed = new Set(kept);
  const moves: Move[] = [];
  if (placed.size === 0 && desired.length > 0) return undefined;
  let progress = true;
  while (progress && placed.size < desired.length) {
    progress = false;
    desired.forEach((item, i) => {
      const anchor = desired[i - 1];
      if (placed.has(item) || anchor === undefined || !placed.has(anchor)) return;
      moves.push({ item, position: 'after', anchor });
      placed.add(item);
      progress = true;
    });
    for (let i = desired.length - 1; i >= 0; i--) {
      const item = desired[i]!;
      const anchor = desired[i + 1];
      if (placed.has(item) || anchor === undefined || !placed.has(anchor)) continue;
      moves.push({ item, position: 'before', anchor });
      placed.add(item);
      progress = true;
    }
  }
  return placed.size === desired.length ? moves : undefined;
}

/** The minimal moves for one container, or undefined when none of its desired items is there to anchor on. */
export function planMoves(current: readonly Slot[], desired: readonly string[]): Move[] | undefined {
  return placeRest(desired, keptItems(current, desired));
}
