/**
 * The gate counts the objects a delete takes with it (Step.cascades) as deletes of their own kind, per (kind,
 * org), once each: thresholds (lifted by --force), delete-all and empty-manifests (never lifted by --force).
 */
import { describe, expect, it } from 'vitest';
import type { CascadeObject, Plan } from '../../src/model/plan.js';
import { liveKey } from '../../src/model/state.js';
import { planChanges } from '../../src/safety/counts.js';
import { checkPlan } from '../../src/safety/gate.js';
import { changeStep, gateOpts, liveWith, obj, planWith } from './helpers.js';

const summary = (vs: { rule: string; kind?: string; overridable: boolean }[]): string[] =>
  vs.map((v) => `${v.rule}:${v.kind ?? '-'}:${v.overridable}`);

/** `Space` objects k{from} … k{from+n-1} of org o1 as cascades (ids as liveWith makes them). */
const spaces = (n: number, from = 0): CascadeObject[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'Space', org: 'o1', key: `k${from + i}`, id: `Space-k${from + i}` }));

/** One collection prune step taking `cascades` with it. */
function pruneCollection(cascades: CascadeObject[], key = 'c0'): Plan {
  const plan = planWith();
  plan.steps.push(changeStep('Collection', 'o1', key, 'prune', { cascades }));
  return plan;
}

describe('cascaded objects count as deletes of their kind', () => {
  const live = liveWith([
    { kind: 'Collection', org: 'o1', n: 20 },
    { kind: 'Space', org: 'o1', n: 20 },
  ]);

  it('a cascade over the fraction is refused, naming how many were taken along; --force lifts it', () => {
    const plan = pruneCollection(spaces(6));
    const vs = checkPlan(plan, live, [], gateOpts());
    expect(summary(vs)).toEqual(['delete-fraction:Space:true']);
    expect(vs[0]!.message).toBe(
      'Space in o1: plan deletes 6 of 20 live objects (30%; 6 of them taken along by deleting the objects that hold them), over the limit of 25% ' +
        '(safety.deletes.fraction; applies from 10 live objects, cap 100). Re-run with --force to apply anyway.',
    );
    expect(checkPlan(plan, live, [], gateOpts({ force: true }))).toEqual([]);
  });

  it('at the fraction it passes (the parent delete itself is 1 of 20)', () => {
    expect(checkPlan(pruneCollection(spaces(5)), live, [], gateOpts())).toEqual([]);
  });

  it('counts an object once when a step of its own also deletes it, and once when two steps take it', () => {
    const plan = pruneCollection(spaces(4));
    plan.steps.push(changeStep('Collection', 'o1', 'c1', 'prune', { cascades: spaces(3, 2) })); // k2, k3 again; k4 new
    // k0 also has its own delete step (DELETE path names its id), k5 has one too.
    plan.steps.push(
      changeStep('Space', 'o1', 'k0', 'prune', { requests: [{ method: 'DELETE', path: '/spaces/Space-k0' }] }),
    );
    plan.steps.push(
      changeStep('Space', 'o1', 'k5', 'prune', { requests: [{ method: 'DELETE', path: '/spaces/Space-k5' }] }),
    );
    const space = planChanges(plan).find((c) => c.kind === 'Space')!;
    expect(space.deletes.size).toBe(6); // k0, k5 (own steps) + k1, k2, k3, k4 (cascades)
    expect(space.cascaded).toBe(4);
    expect(summary(checkPlan(plan, live, [], gateOpts()))).toEqual(['delete-fraction:Space:true']);
    // Five distinct spaces pass.
    plan.steps.pop();
    expect(checkPlan(plan, live, [], gateOpts())).toEqual([]);
  });

  it('a cascade over the cap is refused whatever the fraction', () => {
    const big = liveWith([
      { kind: 'Collection', org: 'o1', n: 2 },
      { kind: 'Space', org: 'o1', n: 1000 },
    ]);
    expect(checkPlan(pruneCollection(spaces(100)), big, [], gateOpts())).toEqual([]);
    const vs = checkPlan(pruneCollection(spaces(101)), big, [], gateOpts());
    expect(summary(vs)).toEqual(['delete-cap:Space:true']);
    expect(vs[0]!.message).toContain(
      'Space in o1: plan deletes 101 objects (101 of them taken along by deleting the objects that hold them), over the cap of 100',
    );
  });

  it('a delete that takes every live object of a kind is refused, and --force does not lift it', () => {
    const small = liveWith([
      { kind: 'Collection', org: 'o1', n: 3 },
      { kind: 'Space', org: 'o1', n: 4 },
    ]);
    for (const force of [false, true]) {
      const vs = checkPlan(pruneCollection(spaces(4)), small, [], gateOpts({ force }));
      expect(summary(vs)).toEqual(['delete-all:Space:false']);
      expect(vs[0]!.message).toContain(
        'Space in o1: plan deletes all 4 live objects (4 of them taken along by deleting the objects that hold them)',
      );
    }
    const lifted = gateOpts({ safety: { kinds: { Space: { allowPruneAll: true } } } });
    expect(checkPlan(pruneCollection(spaces(4)), small, [], lifted)).toEqual([]);
  });

  it('with no manifest entries, cascades count towards empty-manifests', () => {
    const vs = checkPlan(pruneCollection(spaces(2)), live, [], gateOpts({ desiredCount: 0, force: true }));
    expect(summary(vs)).toEqual(['empty-manifests:-:false']);
    expect(vs[0]!.message).toContain('the plan deletes 3 objects (Collection in o1: 1, Space in o1: 2)');
  });

  it('live objects a kind read only for its cascades (`related`) count as live objects of their kind', () => {
    // The Collection kind alone is managed: the spaces are only its related objects.
    const only = liveWith([{ kind: 'Collection', org: 'o1', n: 3 }]);
    only.get(liveKey('Collection', 'o1'))!.related = Array.from({ length: 20 }, (_, i) => obj('Space', 'o1', `k${i}`));
    expect(summary(checkPlan(pruneCollection(spaces(6)), only, [], gateOpts()))).toEqual([
      'delete-fraction:Space:true',
    ]);
    expect(checkPlan(pruneCollection(spaces(5)), only, [], gateOpts())).toEqual([]);
    // The same object held by a kind's state and another's related counts once.
    only.set(liveKey('Space', 'o1'), { objects: Array.from({ length: 20 }, (_, i) => obj('Space', 'o1', `k${i}`)) });
    expect(checkPlan(pruneCollection(spaces(5)), only, [], gateOpts())).toEqual([]);
  });

  it('objects without ids (memberships) are told apart by key', () => {
    const plan = planWith();
    const memberships = (team: string, n: number): CascadeObject[] =>
      Array.from({ length: n }, (_, i) => ({ kind: 'TeamMember', org: 'o1', key: `${team}/u${i}@x.test` }));
    plan.steps.push(changeStep('Team', 'o1', 'a', 'prune', { cascades: memberships('a', 60) }));
    plan.steps.push(changeStep('Team', 'o1', 'b', 'prune', { cascades: memberships('b', 60) }));
    const teams = liveWith([{ kind: 'Team', org: 'o1', n: 20 }]);
    const vs = checkPlan(plan, teams, [], gateOpts());
    expect(summary(vs)).toEqual(['delete-cap:TeamMember:true']);
    expect(vs[0]!.message).toContain('plan deletes 120 objects');
  });
});
