/**
 * The one declared order of a plan (after gitops-engine's sort by phase, wave, kind, key):
 * creates parent-first, then updates, then deletes child-first, prunes last.
 * Steps with the same (phase, wave) form a group that apply may run concurrently, so a dependency
 * must always sit in an earlier group; `orderSteps` checks that and fails loudly on a kind bug.
 */
import { DocopsError } from '../model/errors.js';
import { PHASES, type Step } from '../model/plan.js';
import { refsIn } from '../model/refs.js';

const PHASE_RANK: Record<Step['phase'], number> = Object.fromEntries(PHASES.map((p, i) => [p, i])) as Record<
  Step['phase'],
  number
>;

/** Deletes and prunes go child-first: deeper waves first. */
const descending = (phase: Step['phase']): boolean => phase === 'delete' || phase === 'prune';

export function compareSteps(
  a: Pick<Step, 'phase' | 'wave' | 'kind' | 'org' | 'key' | 'id'>,
  b: Pick<Step, 'phase' | 'wave' | 'kind' | 'org' | 'key' | 'id'>,
): number {
  const byPhase = PHASE_RANK[a.phase] - PHASE_RANK[b.phase];
  if (byPhase !== 0) return byPhase;
  const byWave = descending(a.phase) ? b.wave - a.wave : a.wave - b.wave;
  if (byWave !== 0) return byWave;
  return cmp(a.kind, b.kind) || cmp(a.org, b.org) || cmp(a.key, b.key) || cmp(a.id, b.id);
}

const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** The group a step runs in: steps of one group have no dependencies on each other. */
export const groupOf = (s: Step): string => `${s.phase}:${s.wave}`;

/** Sort steps into the declared order and verify every dependency runs in an earlier group. */
export function orderSteps(steps: readonly Step[]): Step[] {
  const sorted = [...steps].sort(compareSteps);
  const groupIndex = new Map<string, number>();
  let g = -1;
  let last = '';
  for (const s of sorted) {
    if (groupOf(s) !== last) {
      g++;
      last = groupOf(s);
    }
    if (groupIndex.has(s.id)) throw new DocopsError(`internal: duplicate step id ${s.id}`);
    groupIndex.set(s.id, g);
  }
  for (const s of sorted) {
    for (const r of refsIn(s.requests)) {
      if (r.stepId !== s.id && !s.dependsOn.includes(r.stepId)) {
        throw new DocopsError(`internal: step ${s.id} refers to ${r.stepId} without depending on it`);
      }
    }
    for (const d of s.dependsOn) {
      const dg = groupIndex.get(d);
      if (dg === undefined) throw new DocopsError(`internal: step ${s.id} depends on unknown step ${d}`);
      if (dg >= groupIndex.get(s.id)!) {
        throw new DocopsError(`internal: step ${s.id} depends on ${d}, which does not run before it`);
      }
    }
  }
  return sorted;
}

/** Consecutive groups of an ordered step list. */
export function groups(ordered: readonly Step[]): Step[][] {
  const out: Step[][] = [];
  let key = '';
  for (const s of ordered) {
    if (out.length === 0 || groupOf(s) !== key) {
      out.push([]);
      key = groupOf(s);
    }
    out[out.length - 1]!.push(s);
  }
  return out;
}
