/**
 * Evaluating a policy over a plan: which rules fire on which changes, the strictest outcome decides, a rule that
 * cannot be evaluated counts as fired (never a pass), and a policy that runs out of time denies the plan.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../src/policy/evaluate.js';
import { enforcePolicy } from '../../src/policy/gate.js';
import { loadPolicyPath } from '../../src/policy/load.js';
import { PolicyError } from '../../src/model/errors.js';
import { change, KIND_NAMES, planOf, tempDir } from './helpers.js';

const tmp = tempDir('docops-policy-eval-');
afterAll(() => tmp.remove());
let n = 0;

async function policy(rules: string) {
  return loadPolicyPath(tmp.write(`p${++n}.yaml`, `rules:\n${rules}`));
}

const plan = planOf(
  change('Site', 'Help', 'update', { before: { visibility: 'private' }, after: { visibility: 'public' }, line: 4 }),
  change('Team', 'Writers', 'create', { after: { title: 'Writers' }, line: 9 }),
  change('Members', 'old@acme.test', 'delete', { before: { role: 'read' }, phase: 'prune' }),
);

describe('evaluatePolicy', () => {
  it('fires each rule on the changes it is true for, with their manifest lines; the strictest outcome decides', async () => {
    const p = await policy(
      '  - { name: public, when: \'change.kind == "Site" && change.after.?visibility.orValue("") == "public"\', outcome: require-approval, message: goes public }\n' +
        '  - { name: prunes, when: \'change.phase == "prune"\', outcome: warn, message: a prune }\n' +
        '  - { name: teams, when: \'change.kind == "Team" && "title" in change.fields\', outcome: warn, message: new team }\n' +
        '  - { name: never, when: \'change.kind == "SamlProvider"\', outcome: deny, message: never }\n',
    );
    const report = evaluatePolicy(p, plan, { kinds: KIND_NAMES });
    expect(report.fired.map((f) => [f.rule, f.object, f.source?.line ?? null])).toEqual([
      ['public', 'Site org-demo/Help', 4],
      ['prunes', 'Members org-demo/old@acme.test', null],
      ['teams', 'Team org-demo/Writers', 9],
    ]);
    expect(report.rules).toBe(4);
    expect(report.decision).toBe('require-approval');
  });

  it('plan.counts has every kind, so a count rule works on plans without that kind', async () => {
    const p = await policy(
      '  - { name: many, when: \'plan.counts["SamlProvider"]["delete"] > 0 || plan.counts["Members"]["prune"] > 0 && change.kind == "Members"\', outcome: deny, message: m }\n',
    );
    expect(evaluatePolicy(p, plan, { kinds: KIND_NAMES }).fired.map((f) => f.object)).toEqual([
      'Members org-demo/old@acme.test',
    ]);
  });

  it('a rule that cannot be evaluated on a change fires there, saying why (an error never passes a plan)', async () => {
    const p = await policy(
      '  - { name: strict, when: \'change.after.visibility == "public"\', outcome: deny, message: m }\n',
    );
    const report = evaluatePolicy(p, plan, { kinds: KIND_NAMES });
    expect(report.decision).toBe('deny');
    expect(report.fired.map((f) => [f.object, f.error ?? null])).toEqual([
      ['Site org-demo/Help', null],
      ['Team org-demo/Writers', 'cannot be evaluated on this change: No such key: visibility'],
      ['Members org-demo/old@acme.test', 'cannot be evaluated on this change: No such key: visibility'],
    ]);
  });

  it('a policy that runs out of its deadline denies the plan, naming the rule (a backtracking regular expression)', async () => {
    const p = await policy(
      '  - { name: ok, when: \'change.kind == "Site"\', outcome: warn, message: m }\n  - { name: redos, when: \'("' +
        'a'.repeat(40) +
        '" + change.kind).matches("^(a+)+$")\', outcome: warn, message: slow }\n',
    );
    const report = evaluatePolicy(p, plan, { kinds: KIND_NAMES, deadlineMs: 100 });
    expect(report.decision).toBe('deny');
    expect(report.fired.at(-1)).toMatchObject({
      rule: 'redos',
      outcome: 'deny',
      error: expect.stringMatching(/took longer than 100 ms \(rule redos was running\)/),
    });
  });

  it('enforcePolicy: deny refuses (exit 3); require-approval refuses unless the approval names this checksum', async () => {
    const deny = evaluatePolicy(
      await policy('  - { name: d, when: \'change.kind == "Team"\', outcome: deny, message: no teams }\n'),
      plan,
      { kinds: KIND_NAMES },
    );
    expect(() => enforcePolicy(deny, undefined)).toThrow(PolicyError);
    expect(() => enforcePolicy(deny, undefined)).toThrow(/\[deny d\] Team org-demo\/Writers: no teams/);
    const base = evaluatePolicy(
      await policy('  - { name: a, when: \'change.kind == "Team"\', outcome: require-approval, message: approve }\n'),
      plan,
      { kinds: KIND_NAMES },
    );
    const report = { ...base, approval: { checksum: 'sha256:' + '1'.repeat(64) } };
    expect(() => enforcePolicy(report, undefined)).toThrow(/needs an approval/);
    expect(() => enforcePolicy(report, 'sha256:' + '2'.repeat(64))).toThrow(/names another plan/);
    expect(() => enforcePolicy(report, 'sha256:' + '1'.repeat(64))).not.toThrow();
    try {
      enforcePolicy(report, undefined);
    } catch (err) {
      expect((err as PolicyError).exitCode).toBe(3);
    }
    const warn = evaluatePolicy(
      await policy('  - { name: w, when: \'change.kind == "Team"\', outcome: warn, message: w }\n'),
      plan,
      { kinds: KIND_NAMES },
    );
    expect(() => enforcePolicy(warn, undefined)).not.toThrow();
  });
});
