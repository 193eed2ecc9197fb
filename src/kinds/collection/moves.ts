/**
 * The order of collection moves within one plan. Moving X under P while P is still (live) inside X is refused
 * by the API: it would nest X in itself. When the plan also lifts P — or a collection between P and X — out
 * of X, that move must run first: X's move depends on it and runs one wave later. (A final state in which X
 * would still be inside itself is blocked earlier, see parents.ts.)
 */
import type { Step } from '../../model/plan.js';

export interface CollectionMove {
  /** The live id of the collection that moves. */
  id: string;
  /** Its new parent: a live id, a ref (a collection created in this plan, never inside another), or null. */
  target: string | null;
  step: Step;
}

/** Sets `wave` (base + how many moves must come first) and `dependsOn` of each move step. */
export function orderCollectionMoves(
  moves: readonly CollectionMove[],
  liveParent: ReadonlyMap<string, string | null>,
  baseWave: number,
): void {
  const byId = new Map(moves.map((m) => [m.id, m]));
  const firsts = new Map<CollectionMove, CollectionMove[]>();
  for (const m of moves) {
    // Walk up from the new parent along live parents; if X is on the way, every moving collection passed
    // before reaching X takes the new parent out of X's subtree (or is needed to) — it goes first.
    const passed: CollectionMove[] = [];
    const seen = new Set<string>();
    for (let at = m.target; at !== null && at !== undefined && !seen.has(at); at = liveParent.get(at) ?? null) {
      if (at === m.id) {
        firsts.set(m, passed);
        break;
      }
      seen.add(at);
      const other = byId.get(at);
      if (other) passed.push(other);
    }
  }
  const level = new Map<CollectionMove, number>();
  const levelOf = (m: CollectionMove, stack: Set<CollectionMove>): number => {
    const known = level.get(m);
    if (known !== undefined) return known;
    if (stack.has(m)) return 0; // a cycle of moves: nothing can go first; the API will say so
    stack.add(m);
    const l = Math.max(0, ...(firsts.get(m) ?? []).map((d) => levelOf(d, stack) + 1));
    stack.delete(m);
    level.set(m, l);
    return l;
  };
  for (const m of moves) {
    const l = levelOf(m, new Set());
    m.step.wave = baseWave + l;
    const deps = (firsts.get(m) ?? []).map((d) => d.step.id);
    if (deps.length > 0) m.step.dependsOn = [...new Set([...m.step.dependsOn, ...deps])].sort();
  }
}
