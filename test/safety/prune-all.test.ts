import { describe, expect, it } from 'vitest';
import { checkPlan } from '../../src/safety/gate.js';
import { gateOpts, liveWith, planWith } from './helpers.js';

const summary = (vs: { rule: string; kind?: string; overridable: boolean }[]): string[] =>
  vs.map((v) => `${v.rule}:${v.kind ?? '-'}:${v.overridable}`);

describe('an empty manifest set never prunes', () => {
  const live = liveWith([
    { kind: 'Team', org: 'o1', n: 50 },
    { kind: 'Translation', org: 'o1', n: 50 },
  ]);

  it('refuses any delete when no manifest was loaded, and --force does not lift it', () => {
    const plan = planWith({ kind: 'Team', org: 'o1', n: 1, phase: 'prune' });
    for (const force of [false, true]) {
      const vs = checkPlan(plan, live, [], gateOpts({ desiredCount: 0, force }));
      expect(summary(vs)).toEqual(['empty-manifests:-:false']);
      expect(vs[0]!.message).toContain('no manifests were loaded, yet the plan deletes 1 object (Team in o1: 1)');
      expect(vs[0]!.message).toContain('--force does not lift this; set safety.allowPruneAll: true');
    }
  });

  it('is lifted by safety.allowPruneAll, or by allowPruneAll on every deleting kind', () => {
    const plan = planWith(
      { kind: 'Team', org: 'o1', n: 1, phase: 'prune' },
      { kind: 'Translation', org: 'o1', n: 1, phase: 'prune' },
    );
    expect(checkPlan(plan, live, [], gateOpts({ desiredCount: 0, safety: { allowPruneAll: true } }))).toEqual([]);
    const onlyTeam = checkPlan(
      plan,
      live,
      [],
      gateOpts({ desiredCount: 0, safety: { kinds: { Team: { allowPruneAll: true } } } }),
    );
    expect(summary(onlyTeam)).toEqual(['empty-manifests:-:false']);
    expect(onlyTeam[0]!.message).toContain('Translation in o1: 1');
    expect(onlyTeam[0]!.message).not.toContain('Team in o1');
    const both = gateOpts({
      desiredCount: 0,
      safety: { kinds: { Team: { allowPruneAll: true }, Translation: { allowPruneAll: true } } },
    });
    expect(checkPlan(plan, live, [], both)).toEqual([]);
  });

  it('does not fire for plans without deletes', () => {
    expect(
      checkPlan(planWith({ kind: 'Team', org: 'o1', n: 1, phase: 'update' }), live, [], gateOpts({ desiredCount: 0 })),
    ).toEqual([]);
  });
});

describe('a plan never deletes every live object of a kind in an org', () => {
  it('refuses deleting all of 2 or more, and --force does not lift it', () => {
    const live = liveWith([{ kind: 'Team', org: 'o1', n: 3 }]);
    const plan = planWith({ kind: 'Team', org: 'o1', n: 3, phase: 'prune' });
    for (const force of [false, true]) {
      const vs = checkPlan(plan, live, [], gateOpts({ desiredCount: 4, force }));
      expect(summary(vs)).toEqual(['delete-all:Team:false']);
      expect(vs[0]!.message).toContain('Team in o1: plan deletes all 3 live objects');
      expect(vs[0]!.message).toContain('safety.kinds.Team.allowPruneAll: true');
    }
  });

  it('treats exactly 2 as "all" but a single live object not', () => {
    expect(
      summary(
        checkPlan(
          planWith({ kind: 'Team', org: 'o1', n: 2, phase: 'prune' }),
          liveWith([{ kind: 'Team', org: 'o1', n: 2 }]),
          [],
          gateOpts(),
        ),
      ),
    ).toEqual(['delete-all:Team:false']);
    expect(
      checkPlan(
        planWith({ kind: 'Team', org: 'o1', n: 1, phase: 'prune' }),
        liveWith([{ kind: 'Team', org: 'o1', n: 1 }]),
        [],
        gateOpts(),
      ),
    ).toEqual([]);
  });

  it('reports the fraction too when it applies, and --force lifts only that one', () => {
    const live = liveWith([{ kind: 'Team', org: 'o1', n: 12 }]);
    const all = planWith({ kind: 'Team', org: 'o1', n: 12, phase: 'prune' });
    expect(summary(checkPlan(all, live, [], gateOpts()))).toEqual([
      'delete-all:Team:false',
      'delete-fraction:Team:true',
    ]);
    expect(summary(checkPlan(all, live, [], gateOpts({ force: true })))).toEqual(['delete-all:Team:false']);
    const allButOne = planWith({ kind: 'Team', org: 'o1', n: 11, phase: 'prune' });
    expect(checkPlan(allButOne, live, [], gateOpts({ force: true }))).toEqual([]);
  });

  it('is lifted per kind by allowPruneAll, leaving other kinds guarded', () => {
    const live = liveWith([
      { kind: 'Team', org: 'o1', n: 3 },
      { kind: 'Translation', org: 'o1', n: 3 },
    ]);
    const plan = planWith(
      { kind: 'Team', org: 'o1', n: 3, phase: 'prune' },
      { kind: 'Translation', org: 'o1', n: 3, phase: 'prune' },
    );
    expect(
      summary(checkPlan(plan, live, [], gateOpts({ safety: { kinds: { Team: { allowPruneAll: true } } } }))),
    ).toEqual(['delete-all:Translation:false']);
    expect(checkPlan(plan, live, [], gateOpts({ safety: { allowPruneAll: true } }))).toEqual([]);
    // a kind may also opt back out of a global allowPruneAll
    const optOut = gateOpts({ safety: { allowPruneAll: true, kinds: { Team: { allowPruneAll: false } } } });
    expect(summary(checkPlan(plan, live, [], optOut))).toEqual(['delete-all:Team:false']);
  });

  it('looks at each org on its own', () => {
    const live = liveWith([
      { kind: 'Team', org: 'o1', n: 3 },
      { kind: 'Team', org: 'o2', n: 3 },
    ]);
    const vs = checkPlan(
      planWith({ kind: 'Team', org: 'o1', n: 2, phase: 'prune' }, { kind: 'Team', org: 'o2', n: 3, phase: 'prune' }),
      live,
      [],
      gateOpts(),
    );
    expect(vs.map((v) => `${v.rule}:${v.org}`)).toEqual(['delete-all:o2']);
  });
});
