/**
 * The gate's mode rule: a plan that would write what its ownership mode forbids (anything in observe, a delete in
 * additive) is refused, and --force does not lift it. The diff never plans such steps; a plan file edited by hand
 * (or a bug) must still not get through.
 */
import { describe, expect, it } from 'vitest';
import { emptyPlan, type Plan } from '../../src/model/plan.js';
import { checkPlan } from '../../src/safety/gate.js';
import { changeStep, gateOpts, liveWith } from './helpers.js';

const live = liveWith([{ kind: 'Team', org: 'o1', n: 20 }]);
const planOf = (...steps: Plan['steps']): Plan => ({ ...emptyPlan(), steps });

describe('the mode rule', () => {
  it('refuses any step in observe and a delete in additive, whatever --force says', () => {
    const plan = planOf(
      changeStep('Team', 'o1', 'k1', 'update', { mode: 'observe' }),
      changeStep('Team', 'o1', 'k2', 'delete', { mode: 'additive' }),
      changeStep('Team', 'o1', 'k3', 'update', {
        mode: 'additive',
        cascades: [{ kind: 'TeamMember', org: 'o1', key: 'k3/a@x.io' }],
      }),
    );
    for (const force of [false, true]) {
      const vs = checkPlan(plan, live, [], gateOpts({ force, desiredCount: 1 }));
      expect(
        vs.filter((v) => v.rule === 'mode').map((v) => [v.kind, v.overridable, v.message.split(':')[1]!.trim()]),
      ).toEqual([
        [
          'Team',
          false,
          'step Team/o1/k1#update writes, which its ownership mode observe never does. --force does not lift this; make the plan again (a plan docops computes never holds such a step).',
        ],
        [
          'Team',
          false,
          'step Team/o1/k2#delete deletes, which its ownership mode additive never does. --force does not lift this; make the plan again (a plan docops computes never holds such a step).',
        ],
        [
          'Team',
          false,
          'step Team/o1/k3#update deletes, which its ownership mode additive never does. --force does not lift this; make the plan again (a plan docops computes never holds such a step).',
        ],
      ]);
    }
  });

  it('lets additive creates and updates through, and reported changes are never counted', () => {
    const plan: Plan = {
      ...planOf(
        changeStep('Team', 'o1', 'k1', 'update', { mode: 'additive' }),
        changeStep('Team', 'o1', 'new', 'create', { mode: 'additive' }),
      ),
      // 19 of 20 teams deleted would be far over the delete limit, if a reported change were a delete.
      reported: Array.from({ length: 19 }, (_, i) => {
        const { requests: _r, dependsOn: _d, ...rest } = changeStep('Team', 'o1', `k${i}`, 'delete');
        return { ...rest, mode: 'observe' as const };
      }),
    };
    expect(checkPlan(plan, live, [], gateOpts({ desiredCount: 1 }))).toEqual([]);
  });
});
