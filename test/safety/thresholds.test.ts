import { describe, expect, it } from 'vitest';
import { SafetyError } from '../../src/model/errors.js';
import { checkPlan, enforce, evaluatePlan } from '../../src/safety/gate.js';
import { gateOpts, liveWith, planWith } from './helpers.js';

const rules = (vs: { rule: string }[]): string[] => vs.map((v) => v.rule);

describe('delete thresholds (default: 25 % from 10 live objects, cap 100)', () => {
  const live = liveWith([{ kind: 'Team', org: 'o1', n: 20 }]);

  it('allows deletes under the fraction', () => {
    expect(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 4, phase: 'prune' }), live, [], gateOpts())).toEqual([]);
  });

  it('allows deletes exactly at the fraction', () => {
    expect(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 5, phase: 'prune' }), live, [], gateOpts())).toEqual([]);
  });

  it('refuses deletes over the fraction, naming the limit, the count and the override', () => {
    const vs = checkPlan(planWith({ kind: 'Team', org: 'o1', n: 6, phase: 'prune' }), live, [], gateOpts());
    expect(rules(vs)).toEqual(['delete-fraction']);
    expect(vs[0]).toMatchObject({ kind: 'Team', org: 'o1', overridable: true });
    expect(vs[0]!.message).toBe(
      'Team in o1: plan deletes 6 of 20 live objects (30%), over the limit of 25% (safety.deletes.fraction; applies from 10 live objects, cap 100). Re-run with --force to apply anyway.',
    );
  });

  it('counts delete-phase steps with prune-phase steps', () => {
    const plan = planWith(
      { kind: 'Team', org: 'o1', n: 3, phase: 'prune' },
      { kind: 'Team', org: 'o1', n: 3, phase: 'delete', from: 3 },
    );
    expect(rules(checkPlan(plan, live, [], gateOpts()))).toEqual(['delete-fraction']);
  });

  it('does not apply the fraction below minLive', () => {
    const small = liveWith([{ kind: 'Team', org: 'o1', n: 9 }]);
    expect(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 8, phase: 'prune' }), small, [], gateOpts())).toEqual([]);
    const atMin = liveWith([{ kind: 'Team', org: 'o1', n: 10 }]);
    expect(
      rules(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 3, phase: 'prune' }), atMin, [], gateOpts())),
    ).toEqual(['delete-fraction']);
  });

  it('applies the absolute cap whatever the fraction', () => {
    const big = liveWith([{ kind: 'Team', org: 'o1', n: 1000 }]);
    expect(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 100, phase: 'prune' }), big, [], gateOpts())).toEqual([]);
    const vs = checkPlan(planWith({ kind: 'Team', org: 'o1', n: 101, phase: 'prune' }), big, [], gateOpts());
    expect(rules(vs)).toEqual(['delete-cap']);
    expect(vs[0]!.message).toContain('plan deletes 101 objects, over the cap of 100 per run (safety.deletes.max)');
    expect(vs[0]!.message).toContain('--force');
  });

  it('measures each org separately', () => {
    const two = liveWith([
      { kind: 'Team', org: 'o1', n: 20 },
      { kind: 'Team', org: 'o2', n: 20 },
    ]);
    const plan = planWith(
      { kind: 'Team', org: 'o1', n: 6, phase: 'prune' },
      { kind: 'Team', org: 'o2', n: 5, phase: 'prune' },
    );
    const vs = checkPlan(plan, two, [], gateOpts());
    expect(vs.map((v) => v.org)).toEqual(['o1']);
  });

  it('counts live objects of a sub-kind wherever the live state holds them', () => {
    const live = liveWith([
      { kind: 'Site', org: 'o1', n: 2 },
      { kind: 'SiteSection', org: 'o1', n: 20, holder: 'Site' },
    ]);
    const vs = checkPlan(planWith({ kind: 'SiteSection', org: 'o1', n: 6, phase: 'prune' }), live, [], gateOpts());
    expect(vs).toHaveLength(1);
    expect(vs[0]!.message).toContain('SiteSection in o1: plan deletes 6 of 20 live objects');
  });
});

describe('update thresholds (default: 30 % from 10 live objects, cap 500)', () => {
  const live = liveWith([{ kind: 'Team', org: 'o1', n: 10 }]);

  it('allows updates at the fraction and refuses above it', () => {
    expect(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 3, phase: 'update' }), live, [], gateOpts())).toEqual([]);
    const vs = checkPlan(planWith({ kind: 'Team', org: 'o1', n: 4, phase: 'update' }), live, [], gateOpts());
    expect(rules(vs)).toEqual(['update-fraction']);
    expect(vs[0]!.message).toContain('plan updates 4 of 10 live objects (40%), over the limit of 30%');
  });

  it('ignores creates', () => {
    expect(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 50, phase: 'create' }), live, [], gateOpts())).toEqual([]);
  });

  it('caps updates per run', () => {
    const big = liveWith([{ kind: 'Team', org: 'o1', n: 5000 }]);
    expect(
      rules(checkPlan(planWith({ kind: 'Team', org: 'o1', n: 501, phase: 'update' }), big, [], gateOpts())),
    ).toEqual(['update-cap']);
  });
});

describe('per-kind overrides', () => {
  const live = liveWith([
    { kind: 'Team', org: 'o1', n: 20 },
    { kind: 'Translation', org: 'o1', n: 20 },
  ]);
  const plan = planWith(
    { kind: 'Team', org: 'o1', n: 10, phase: 'prune' },
    { kind: 'Translation', org: 'o1', n: 10, phase: 'prune' },
  );

  it('applies a kind override to that kind only', () => {
    const vs = checkPlan(plan, live, [], gateOpts({ safety: { kinds: { Team: { deletes: { fraction: 0.5 } } } } }));
    expect(vs.map((v) => `${v.rule}:${v.kind}`)).toEqual(['delete-fraction:Translation']);
  });

  it('names the overriding setting in the message', () => {
    const small = liveWith([{ kind: 'Team', org: 'org-demo', n: 10 }]);
    const vs = checkPlan(
      planWith({ kind: 'Team', org: 'org-demo', n: 6, phase: 'prune' }),
      small,
      [],
      gateOpts({ safety: { kinds: { Team: { deletes: { fraction: 0.3, max: 25 } } } } }),
    );
    expect(vs.map((v) => v.message)).toEqual([
      'Team in org-demo: plan deletes 6 of 10 live objects (60%), over the limit of 30% (safety.kinds.Team.deletes.fraction; applies from 10 live objects, cap 25). Re-run with --force to apply anyway.',
    ]);
  });

  it('can raise minLive and lower the cap per kind', () => {
    const opts = gateOpts({
      safety: { kinds: { Team: { deletes: { minLive: 50 } }, Translation: { deletes: { fraction: 1, max: 9 } } } },
    });
    expect(checkPlan(plan, live, [], opts).map((v) => `${v.rule}:${v.kind}`)).toEqual(['delete-cap:Translation']);
  });
});

describe('--force', () => {
  const live = liveWith([{ kind: 'Team', org: 'o1', n: 1000 }]);
  const plan = planWith(
    { kind: 'Team', org: 'o1', n: 300, phase: 'prune' },
    { kind: 'Team', org: 'o1', n: 400, phase: 'update', from: 300 },
  );

  it('lifts thresholds, and enforce reports what it lifted', () => {
    expect(rules(checkPlan(plan, live, [], gateOpts()))).toEqual(['delete-fraction', 'delete-cap', 'update-fraction']);
    expect(checkPlan(plan, live, [], gateOpts({ force: true }))).toEqual([]);
    expect(rules(enforce(plan, live, [], gateOpts({ force: true })))).toEqual([
      'delete-fraction',
      'delete-cap',
      'update-fraction',
    ]);
    expect(evaluatePlan(plan, live, [], gateOpts({ force: true })).blocking).toEqual([]);
  });

  it('without it, enforce throws a SafetyError that exits 3 and lists every violation', () => {
    let caught: unknown;
    try {
      enforce(plan, live, [], gateOpts());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SafetyError);
    const err = caught as SafetyError;
    expect(err.exitCode).toBe(3);
    expect(err.violations).toHaveLength(3);
    expect(err.message).toContain('[delete-cap] Team in o1: plan deletes 300 objects');
  });
});
