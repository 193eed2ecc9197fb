/** Move planning: minimal for known orders, right for any order of concurrent creates. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptItems, planMoves, type Move, type Slot } from '../../../src/kinds/site/moves.js';

/** Apply moves to a concrete order. */
function apply(order: string[], moves: readonly Move[]): string[] {
  const list = [...order];
  for (const m of moves) {
    const from = list.indexOf(m.item);
    if (from >= 0) list.splice(from, 1);
    const at = list.indexOf(m.anchor);
    expect(at).toBeGreaterThanOrEqual(0);
    list.splice(m.position === 'before' ? at : at + 1, 0, m.item);
  }
  return list;
}

/** Longest increasing subsequence length, by patience sorting (independent of keptItems). */
function lisLength(xs: readonly number[]): number {
  const tails: number[] = [];
  for (const x of xs) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}

/** A permutation of ids, split into slots (some of several items), plus a shuffle of each slot. */
const scenario = fc.integer({ min: 1, max: 9 }).chain((n) =>
  fc.record({
    desired: fc.shuffledSubarray(
      [...Array(n).keys()].map((i) => `i${i}`),
      { minLength: n, maxLength: n },
    ),
    current: fc.shuffledSubarray(
      [...Array(n).keys()].map((i) => `i${i}`),
      { minLength: 1, maxLength: n },
    ),
    cuts: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: n, maxLength: n }),
    seed: fc.integer(),
  }),
);

function slotsOf(items: string[], cuts: number[]): Slot[] {
  const out: Slot[] = [];
  let i = 0;
  for (const c of cuts) {
    if (i >= items.length) break;
    out.push(items.slice(i, i + c));
    i += c;
  }
  if (i < items.length) out.push(items.slice(i));
  return out;
}

/** One concrete order of slots: each unordered slot shuffled by the seed. */
function concretize(slots: Slot[], seed: number): string[] {
  let s = seed >>> 0;
  const rand = (): number => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return slots.flatMap((slot) => [...slot].sort(() => rand() - 0.5));
}

describe('planMoves', () => {
  it('reaches the desired order for any order of concurrently created items', () => {
    fc.assert(
      fc.property(scenario, ({ desired, current, cuts, seed }) => {
        const slots = slotsOf(current, cuts);
        const moves = planMoves(slots, desired)!;
        const final = apply(concretize(slots, seed), moves);
        expect(final.filter((x) => desired.includes(x))).toEqual(desired);
      }),
    );
  });

  it('moves exactly the items outside a longest increasing subsequence when the order is known', () => {
    fc.assert(
      fc.property(scenario, ({ desired, current }) => {
        const slots = current.map((x) => [x]);
        const moves = planMoves(slots, desired)!;
        const index = new Map(desired.map((d, i) => [d, i]));
        expect(moves).toHaveLength(desired.length - lisLength(current.map((x) => index.get(x)!)));
      }),
    );
  });

  it('keeps at most one item of an unordered slot', () => {
    expect([...keptItems([['a'], ['b', 'c']], ['a', 'b', 'c'])]).toHaveLength(2);
    expect(planMoves([['a'], ['b', 'c']], ['a', 'b', 'c'])).toHaveLength(1);
  });

  it('one move for one item out of place', () => {
    expect(planMoves([['a'], ['b'], ['c'], ['d']], ['b', 'c', 'd', 'a'])).toEqual([
      { item: 'a', position: 'after', anchor: 'd' },
    ]);
  });
});
