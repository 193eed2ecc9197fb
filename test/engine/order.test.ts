import { describe, expect, it } from 'vitest';
import { compareSteps, groups, orderSteps } from '../../src/engine/order.js';
import { ref } from '../../src/model/refs.js';
import { step } from './helpers.js';

describe('the declared order', () => {
  it('creates parent-first, then updates, deletes child-first, prunes last', () => {
    const steps = [
      step({ id: 'prune-team', phase: 'prune', action: 'delete', kind: 'Team', wave: 20 }),
      step({ id: 'prune-section', phase: 'prune', action: 'delete', kind: 'SiteSection', wave: 40 }),
      step({ id: 'delete-membership', phase: 'delete', action: 'delete', kind: 'TeamMember', wave: 25 }),
      step({ id: 'update-org', phase: 'update', action: 'update', kind: 'Organization', wave: 0 }),
      step({ id: 'create-section', phase: 'create', kind: 'SiteSection', wave: 40 }),
      step({ id: 'create-site', phase: 'create', kind: 'Site', wave: 30 }),
      step({ id: 'update-team', phase: 'update', action: 'update', kind: 'Team', wave: 20 }),
      step({ id: 'invite', phase: 'create', kind: 'Members', wave: 10 }),
    ];
    expect(orderSteps(steps).map((s) => s.id)).toEqual([
      'invite',
      'create-site',
      'create-section',
      'update-org',
      'update-team',
      'delete-membership',
      'prune-section',
      'prune-team',
    ]);
  });

  it('breaks ties by kind, org, key so the order is stable whatever the input order', () => {
    const a = step({ id: 'a', kind: 'Team', key: 'beta' });
    const b = step({ id: 'b', kind: 'Team', key: 'alpha' });
    const c = step({ id: 'c', kind: 'Members', key: 'zed' });
    const d = step({ id: 'd', kind: 'Team', org: 'o0', key: 'zzz' });
    const expected = ['c', 'd', 'b', 'a'];
    expect(orderSteps([a, b, c, d]).map((s) => s.id)).toEqual(expected);
    expect(orderSteps([d, c, b, a]).map((s) => s.id)).toEqual(expected);
    expect(compareSteps(a, a)).toBe(0);
  });

  it('groups consecutive steps of one phase and wave', () => {
    const ordered = orderSteps([
      step({ id: 'x1', wave: 1 }),
      step({ id: 'x2', wave: 1 }),
      step({ id: 'y', wave: 2, dependsOn: ['x1'], requests: [{ method: 'POST', path: `/a/${ref('x1')}` }] }),
    ]);
    expect(groups(ordered).map((g) => g.map((s) => s.id))).toEqual([['x1', 'x2'], ['y']]);
  });

  it('rejects a dependency that would not run before its dependent', () => {
    expect(() => orderSteps([step({ id: 'a', wave: 1 }), step({ id: 'b', wave: 1, dependsOn: ['a'] })])).toThrow(
      /does not run before/,
    );
    expect(() => orderSteps([step({ id: 'b', dependsOn: ['nope'] })])).toThrow(/unknown step nope/);
  });

  it('rejects a ref to a step that is not declared as a dependency', () => {
    const a = step({ id: 'a', wave: 0 });
    const b = step({ id: 'b', wave: 1, requests: [{ method: 'PUT', path: `/teams/${ref('a')}/members` }] });
    expect(() => orderSteps([a, b])).toThrow(/refers to a without depending on it/);
  });

  it('rejects duplicate step ids', () => {
    expect(() => orderSteps([step({ id: 'a' }), step({ id: 'a', key: 'other' })])).toThrow(/duplicate step id a/);
  });
});
