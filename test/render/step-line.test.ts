import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/model/plan.js';
import { stepLine } from '../../src/render/step-line.js';

const step = (over: Partial<Step>): Step => ({
  id: 'x',
  action: 'update',
  phase: 'update',
  kind: 'Members',
  org: 'org-demo',
  key: 'ann@acme.test',
  wave: 0,
  before: null,
  after: null,
  dependsOn: [],
  requests: [],
  ...over,
});

describe('a step as one log line', () => {
  it('an update names each changed field old → new, a null with a meaning as such', () => {
    expect(stepLine(step({ before: { role: 'review' }, after: { role: null }, nulls: { role: 'guest' } }))).toBe(
      '~ Members org-demo/ann@acme.test  role: "review" → null (guest)',
    );
    expect(stepLine(step({ before: { role: 'read' }, after: { role: 'comment' } }))).toBe(
      '~ Members org-demo/ann@acme.test  role: "read" → "comment"',
    );
  });

  it('a create lists what it sets, a delete names the object; secret-looking fields are masked; long lines are cut', () => {
    expect(
      stepLine(
        step({
          action: 'create',
          phase: 'create',
          kind: 'Team',
          key: 'Ops',
          after: { title: 'Ops', apiToken: 'abc123' },
        }),
      ),
    ).toBe('+ Team org-demo/Ops  title: "Ops", apiToken: (sensitive)');
    expect(
      stepLine(step({ action: 'delete', phase: 'prune', kind: 'Team', key: 'Old', before: { title: 'Old' } })),
    ).toBe('- Team org-demo/Old');
    const long = stepLine(step({ before: { note: 'a' }, after: { note: 'b'.repeat(500) } }), 80);
    expect([...long]).toHaveLength(80);
    expect(long.endsWith('…')).toBe(true);
  });
});
