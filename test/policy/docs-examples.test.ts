/**
 * The five worked examples of docs/policy.md, as written there: each `yaml` block of its "Examples" section loads
 * (file:line:column checks and all) and fires on the plans it must, and only on those.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/model/plan.js';
import { evaluatePolicy } from '../../src/policy/evaluate.js';
import { loadPolicyPath } from '../../src/policy/load.js';
import { change, KIND_NAMES, planOf, tempDir } from './helpers.js';

const doc = readFileSync('docs/policy.md', 'utf8');
const examples = [...doc.slice(doc.indexOf('\n## Examples')).matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
const tmp = tempDir('docops-policy-docs-');
afterAll(() => tmp.remove());

const members = (n: number): Step[] =>
  Array.from({ length: n }, (_, i) =>
    change('Members', `user${i}@acme.test`, 'delete', { before: { role: 'read' }, phase: 'prune' }),
  );

/** Per rule: plans it must fire on (and on how many changes), and plans it must not fire on. */
const CASES: Record<string, { fires: [Step[], number][]; quiet: Step[][] }> = {
  'public-sites': {
    fires: [
      [[change('Site', 'Help', 'create', { after: { title: 'Help' } })], 1],
      [[change('Site', 'Help', 'update', { before: { visibility: 'unlisted' }, after: { visibility: 'public' } })], 1],
    ],
    quiet: [
      [change('Site', 'Help', 'create', { after: { title: 'Help', visibility: 'unlisted' } })],
      [change('Site', 'Help', 'update', { before: { title: 'A' }, after: { title: 'B' } })],
      [change('Team', 'Help', 'create')],
    ],
  },
  'admins-from-our-domains': {
    fires: [
      [[change('Members', 'eve@evil.test', 'update', { before: { role: 'read' }, after: { role: 'admin' } })], 1],
      [
        [
          change('Members', 'invite', 'create', {
            after: { members: { 'x@evil.test': 'admin', 'y@acme.test': 'read' }, sso: false },
          }),
        ],
        1,
      ],
    ],
    quiet: [
      [change('Members', 'ada@acme.test', 'update', { before: { role: 'read' }, after: { role: 'admin' } })],
      [
        change('Members', 'invite', 'create', {
          after: { members: { 'x@acme.example': 'admin', 'y@evil.test': 'read' }, sso: false },
        }),
      ],
      [change('Members', 'eve@evil.test', 'update', { before: { role: 'admin' }, after: { role: 'read' } })],
    ],
  },
  'at-most-ten-member-removals': { fires: [[members(11), 11]], quiet: [members(10)] },
  'saml-needs-security': {
    fires: [[[change('SamlProvider', 'Okta', 'update', { before: { enabled: false }, after: { enabled: true } })], 1]],
    quiet: [[change('Team', 'Security', 'update')]],
  },
  'spaces-deleted': {
    fires: [
      [[change('Space', 'Old notes', 'delete')], 1],
      [
        [
          {
            ...change('Collection', 'Archive', 'delete'),
            cascades: [{ kind: 'Space', org: 'org-demo', key: 'Archive/Old' }],
          },
        ],
        1,
      ],
    ],
    quiet: [[change('Collection', 'Archive', 'delete')], [change('Space', 'New', 'create')]],
  },
};

describe('docs/policy.md examples', () => {
  it('has five worked examples, one rule each, all of them tested here', () => {
    expect(examples).toHaveLength(5);
    const names = examples.map((e) => /name: ([\w-]+)/.exec(e)![1]);
    expect(names.sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(examples.map((text) => [/name: ([\w-]+)/.exec(text)![1]!, text]))('%s', async (name, text) => {
    const policy = await loadPolicyPath(tmp.write(`${name}.yaml`, text));
    const cases = CASES[name]!;
    for (const [steps, count] of cases.fires) {
      const report = evaluatePolicy(policy, planOf(...steps), { kinds: KIND_NAMES });
      expect(report.fired.filter((f) => f.error === undefined).map((f) => f.rule)).toEqual(Array(count).fill(name));
      expect(report.fired.filter((f) => f.error !== undefined)).toEqual([]);
    }
    for (const steps of cases.quiet)
      expect(evaluatePolicy(policy, planOf(...steps), { kinds: KIND_NAMES }).fired).toEqual([]);
  });

  it('example 4 names its approvers, for the pull-request comment', async () => {
    const policy = await loadPolicyPath(
      tmp.write(
        'approvers.yaml',
        examples.find((e) => e.includes('saml-needs-security'))!,
      ),
    );
    expect(policy.approvers).toEqual({ githubTeam: 'acme/security' });
  });
});
