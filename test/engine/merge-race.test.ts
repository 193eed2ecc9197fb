/**
 * MergeSpec's `pick`, `sets` and `remove` (issue 33, `race`): a write the API takes only whole, or a PATCH that
 * must name a member it does not change, is built from what apply reads right before sending, so a change another
 * actor made after the plan stays.
 */
import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../src/engine/merge.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { renderJson } from '../../src/render/json.js';
import { emptyPlan, type Plan } from '../../src/model/plan.js';

describe('mergePatch: pick, sets and remove', () => {
  it('pick: only the patch members and the picked ones are sent, as read', () => {
    const read = { object: 'publishing-auth', backend: 'integration', privateKey: 'k', logoutURL: 'https://l' };
    expect(mergePatch(read, { fallbackURL: 'https://f' }, { pick: ['backend'] })).toEqual({
      backend: 'integration',
      fallbackURL: 'https://f',
    });
    expect(mergePatch({ a: 1, b: 2 }, { b: 3 }, { pick: [] })).toEqual({ b: 3 });
  });

  it('sets: the list read, less the removed items, plus the added ones it lacks (in that order)', () => {
    const read = { emailDomains: ['acme.test', 'partner.test', 'old.test'], title: 'Acme' };
    const patch = { emailDomains: { add: ['new.test', 'acme.test'], remove: ['old.test'] } };
    expect(mergePatch(read, patch, { pick: [], sets: ['/emailDomains'] })).toEqual({
      emailDomains: ['acme.test', 'partner.test', 'new.test'],
    });
    // Nothing read there: the added items alone.
    expect(mergePatch({}, patch, { sets: ['/emailDomains'] })).toEqual({ emailDomains: ['new.test', 'acme.test'] });
    expect(read.emailDomains).toEqual(['acme.test', 'partner.test', 'old.test']);
  });

  it('remove: members deleted from the merged object; a pointer that names nothing changes nothing', () => {
    const read = {
      jsonSchema: { properties: { a: { type: 'string' }, b: { type: 'boolean' }, c: {} } },
      updatedAt: 'T',
    };
    const patch = { jsonSchema: { properties: { a: { description: 'A' } } } };
    expect(
      mergePatch(read, patch, { pick: [], remove: ['/jsonSchema/properties/b', '/jsonSchema/nothing/x'] }),
    ).toEqual({ jsonSchema: { properties: { a: { type: 'string', description: 'A' }, c: {} } } });
  });

  it('a saved plan keeps pick, sets and remove', () => {
    const plan: Plan = {
      ...emptyPlan(),
      steps: [
        {
          id: 'Organization/o/o#update',
          action: 'update',
          phase: 'update',
          kind: 'Organization',
          org: 'o',
          key: 'o',
          wave: 0,
          before: { emailDomains: ['a.test'] },
          after: { emailDomains: ['b.test'] },
          dependsOn: [],
          requests: [
            {
              method: 'PATCH',
              path: '/orgs/o',
              body: { emailDomains: { add: ['b.test'], remove: ['a.test'] } },
              merge: { pick: ['backend'], sets: ['/emailDomains'], remove: ['/x'] },
            },
          ],
        },
      ],
    };
    const parsed = parsePlanJson(renderJson(plan));
    expect(parsed.steps[0]!.requests[0]!.merge).toEqual({ pick: ['backend'], sets: ['/emailDomains'], remove: ['/x'] });
  });
});
