/**
 * Every rule compares a plan's changes with the live total of the same population: the objects of a kind in an
 * organization for kinds read as one list, one object's list for sub-objects read per object (LiveObject.parent).
 * Before, the sub-objects of every object read were pooled into one "organization total" — a scoped read that is
 * no total at all: a space's grants were diluted by another space's, a pruned site's sections were a fraction of
 * the other sites' sections, a site emptied by a space purge hid behind the sites the purge left alone.
 */
import { describe, expect, it } from 'vitest';
import type { LiveObject, ParentRef } from '../../src/model/kind.js';
import type { CascadeObject } from '../../src/model/plan.js';
import { liveKey, type LiveState } from '../../src/model/state.js';
import { checkPlan } from '../../src/safety/gate.js';
import { changeStep, gateOpts, planWith } from './helpers.js';

const summary = (vs: { rule: string; kind?: string; overridable: boolean }[]): string[] =>
  vs.map((v) => `${v.rule}:${v.kind ?? '-'}:${v.overridable}`);

const parent = (kind: string, key: string): ParentRef => ({ kind, id: `${kind}-${key}`, key });

/** `n` objects of `kind` in o1 keyed `<parent key>/k<i>` (id `<kind>-<key>`), in the list of `of` when given. */
function objects(kind: string, n: number, of?: ParentRef): LiveObject[] {
  return Array.from({ length: n }, (_, i) => {
    const key = of ? `${of.key}/k${i}` : `k${i}`;
    return { kind, org: 'o1', key, id: `${kind}-${key}`, fields: {}, ...(of ? { parent: of } : {}) };
  });
}

function liveOf(holder: string, objs: LiveObject[], related: LiveObject[] = []): LiveState {
  return new Map([[liveKey(holder, 'o1'), { objects: objs, related }]]);
}

/** Steps changing keys `<of>/k0` … of `kind` (DELETE / PATCH paths name their ids). */
function listSteps(kind: string, of: string, n: number, phase: 'delete' | 'update', from = 0) {
  return Array.from({ length: n }, (_, i) => {
    const key = `${of}/k${from + i}`;
    return changeStep(kind, 'o1', key, phase, {
      requests: [{ method: phase === 'delete' ? 'DELETE' : 'PATCH', path: `/x/${kind}-${encodeURIComponent(key)}` }],
    });
  });
}

const cascades = (kind: string, of: string, n: number): CascadeObject[] =>
  Array.from({ length: n }, (_, i) => ({ kind, org: 'o1', key: `${of}/k${i}`, id: `${kind}-${of}/k${i}` }));

describe('sub-objects read per object are measured against that object’s list', () => {
  const a = parent('Space', 'A');
  const b = parent('Space', 'B');
  const live = liveOf('Space', [
    ...objects('Space', 2),
    ...objects('SpaceAccess', 12, a),
    ...objects('SpaceAccess', 12, b),
  ]);

  it('deleting 4 of one space’s 12 grants is over 25% of its list, whatever another space’s list holds', () => {
    const plan = planWith();
    plan.steps.push(...listSteps('SpaceAccess', 'A', 4, 'delete'));
    const vs = checkPlan(plan, live, [], gateOpts());
    expect(summary(vs)).toEqual(['delete-fraction:SpaceAccess:true']);
    expect(vs[0]!.message).toBe(
      'SpaceAccess of Space "A" in o1: plan deletes 4 of 12 live objects (33.3%), over the limit of 25% (safety.deletes.fraction; applies from 10 live objects, cap 100). Re-run with --force to apply anyway.',
    );
    expect(checkPlan(plan, live, [], gateOpts({ force: true }))).toEqual([]);
    // 3 of A's and 3 of B's: 25% of each list passes.
    const spread = planWith();
    spread.steps.push(...listSteps('SpaceAccess', 'A', 3, 'delete'), ...listSteps('SpaceAccess', 'B', 3, 'delete'));
    expect(checkPlan(spread, live, [], gateOpts())).toEqual([]);
  });

  it('updates too: 4 role changes of one space’s 12 grants are over 30%', () => {
    const plan = planWith();
    plan.steps.push(...listSteps('SpaceAccess', 'B', 4, 'update'));
    expect(summary(checkPlan(plan, live, [], gateOpts()))).toEqual(['update-fraction:SpaceAccess:true']);
  });

  it('the cap counts every list of the kind in the org together', () => {
    const plan = planWith();
    plan.steps.push(...listSteps('SpaceAccess', 'A', 2, 'delete'), ...listSteps('SpaceAccess', 'B', 2, 'delete'));
    const vs = checkPlan(plan, live, [], gateOpts({ safety: { kinds: { SpaceAccess: { deletes: { max: 3 } } } } }));
    expect(summary(vs)).toEqual(['delete-cap:SpaceAccess:true']);
    expect(vs[0]!.message).toContain(
      'SpaceAccess in o1: plan deletes 4 objects, over the cap of 3 per run (safety.kinds.SpaceAccess.deletes.max)',
    );
  });
});

describe('a list whose object the plan deletes goes with it', () => {
  const s1 = parent('Site', 's1');
  const s2 = parent('Site', 's2');
  const sites = [
    { kind: 'Site', org: 'o1', key: 's1', id: s1.id, fields: {} },
    { kind: 'Site', org: 'o1', key: 's2', id: s2.id, fields: {} },
  ];
  const live = liveOf('Site', sites, [...objects('SiteSection', 12, s1), ...objects('SiteSection', 12, s2)]);
  const pruneSite = () => {
    const plan = planWith();
    plan.steps.push(
      changeStep('Site', 'o1', 's1', 'prune', {
        requests: [{ method: 'DELETE', path: `/orgs/o1/sites/${s1.id}` }],
        cascades: cascades('SiteSection', 's1', 12),
      }),
    );
    return plan;
  };

  it('pruning one site is not "all of its sections" nor a fraction of every site’s sections: its delete is measured as a Site', () => {
    expect(checkPlan(pruneSite(), live, [], gateOpts())).toEqual([]);
  });

  it('its sections still count toward the cap', () => {
    const vs = checkPlan(
      pruneSite(),
      live,
      [],
      gateOpts({ safety: { kinds: { SiteSection: { deletes: { max: 10 } } } } }),
    );
    expect(summary(vs)).toEqual(['delete-cap:SiteSection:true']);
    expect(vs[0]!.message).toContain(
      'plan deletes 12 objects (12 of them taken along by deleting the objects that hold them)',
    );
  });
});

describe('a list emptied as a side effect', () => {
  it('a space purge that takes every site space of a site that stays is refused for that site, however many other sites were read', () => {
    const s1 = parent('Site', 's1');
    const s2 = parent('Site', 's2');
    const live = liveOf('Space', objects('Space', 20), [
      ...objects('SiteSpace', 2, s1),
      ...objects('SiteSpace', 10, s2),
    ]);
    const plan = planWith();
    plan.steps.push(
      changeStep('Space', 'o1', 'k0', 'prune', {
        requests: [{ method: 'DELETE', path: '/spaces/Space-k0' }],
        cascades: cascades('SiteSpace', 's1', 2),
      }),
    );
    const vs = checkPlan(plan, live, [], gateOpts({ force: true }));
    expect(summary(vs)).toEqual(['empty-list:SiteSpace:false']);
    expect(vs[0]!.message).toBe(
      'SiteSpace of Site "s1" in o1: plan deletes all 2 of its live objects (2 of them taken along by deleting the objects that hold them), emptying the list or replacing it whole. ' +
        'A list emptied by mistake looks exactly like this, so --force does not lift it; no manifest describes Site "s1", so set safety.kinds.SiteSpace.allowEmpty: true in the config to allow it.',
    );
    expect(checkPlan(plan, live, [], gateOpts({ safety: { kinds: { SiteSpace: { allowEmpty: true } } } }))).toEqual([]);
  });
});

describe('changes to objects no list read holds', () => {
  it('count only toward the cap (no total to compare with)', () => {
    const live = liveOf('Members', objects('Members', 3));
    const plan = planWith();
    const memberships = Array.from({ length: 12 }, (_, i): CascadeObject => ({
      kind: 'TeamMember',
      org: 'o1',
      key: `T${i}/ada@acme.test`,
    }));
    plan.steps.push(changeStep('Members', 'o1', 'k0', 'prune', { cascades: memberships }));
    expect(checkPlan(plan, live, [], gateOpts())).toEqual([]);
    expect(
      summary(checkPlan(plan, live, [], gateOpts({ safety: { kinds: { TeamMember: { deletes: { max: 11 } } } } }))),
    ).toEqual(['delete-cap:TeamMember:true']);
  });
});

describe('every refusal names its way through', () => {
  it('overridable rules name --force, the others the document field or config key that lifts them', () => {
    const list = parent('Collection', 'C');
    const live = liveOf('Team', [
      ...objects('Team', 12),
      ...objects('Translation', 12),
      ...objects('CollectionAccess', 3, list),
    ]);
    const plan = planWith(
      { kind: 'Team', org: 'o1', n: 12, phase: 'prune' },
      { kind: 'Translation', org: 'o1', n: 12, phase: 'update' },
    );
    plan.steps.push(...listSteps('CollectionAccess', 'C', 3, 'delete'));
    const tight = { deletes: { max: 5 }, updates: { max: 5 } };
    const seen = [
      ...checkPlan(plan, live, [], gateOpts({ safety: tight })),
      ...checkPlan(plan, live, [], gateOpts({ desiredCount: 0 })),
    ];
    expect([...new Set(seen.map((v) => v.rule))].sort()).toEqual([
      'delete-all',
      'delete-cap',
      'delete-fraction',
      'empty-list',
      'empty-manifests',
      'update-cap',
      'update-fraction',
    ]);
    const way: Record<string, RegExp> = {
      'delete-all': /set safety\.kinds\.Team\.allowPruneAll: true \(or safety\.allowPruneAll: true\)/,
      'empty-manifests': /set safety\.allowPruneAll: true/,
      'empty-list': /set safety\.kinds\.CollectionAccess\.allowEmpty: true/,
    };
    for (const v of seen) expect(v.message, v.rule).toMatch(v.overridable ? /Re-run with --force/ : way[v.rule]!);
  });
});
