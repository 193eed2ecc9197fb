/**
 * schemas/plan.schema.json describes `plan --format json`: the plans the suite prints are checked in every test file
 * (test/plan-schema-setup.ts); here, that the check is real — it refuses what docops does not print — and that the
 * plans of the example manifests, with scopes and a policy's verdict, are valid.
 */
import { describe, expect, it } from 'vitest';
import { emptyPlan } from '../../src/model/plan.js';
import { renderJson } from '../../src/render/json.js';
import { runCli } from '../cli/run-cli.js';
import { planSchemaProblems } from '../plan-schema-check.js';
import { printedPlanProblems } from '../plan-schema-setup.js';
import { tempDir } from '../policy/helpers.js';

describe('the plan format schema', () => {
  it('refuses a member docops does not print, a wrong type, another formatVersion', () => {
    const good = JSON.parse(renderJson(emptyPlan())) as Record<string, unknown>;
    expect(planSchemaProblems(JSON.stringify(good))).toEqual([]);
    expect(planSchemaProblems(JSON.stringify({ ...good, extra: 1 }))).toEqual([
      '/: must NOT have additional properties (extra)',
    ]);
    expect(planSchemaProblems(JSON.stringify({ ...good, formatVersion: 2 }))).toEqual([
      '/formatVersion: must be equal to constant',
    ]);
    expect(planSchemaProblems(JSON.stringify({ ...good, steps: [{ id: 's' }] }))[0]).toMatch(
      /^\/steps\/0: must have required property/,
    );
  });

  it('every plan renderJson prints in a test file is checked (the wrapper is in place)', () => {
    const before = printedPlanProblems().length;
    renderJson({
      ...emptyPlan(),
      blocked: [{ kind: 'Team', org: 'o', key: 'k', message: 'm', source: { file: 'f', line: 0, column: 1 } }],
    });
    expect(printedPlanProblems().slice(before)).toEqual(['/blocked/0/source/line: must be >= 1']);
    printedPlanProblems().splice(before); // this test's own bad plan is not the suite's
  });

  it('plan --format json of the example manifests, with scopes and a policy verdict, is valid', async () => {
    const tmp = tempDir('docops-plan-schema-');
    try {
      const policy = tmp.write(
        'policy.yaml',
        "approvers: { githubTeam: acme/security }\nrules:\n  - { name: roles, when: 'change.kind == \"Members\"', outcome: require-approval, message: m }\n  - { name: oops, when: 'change.after.nope == 1', outcome: warn, message: m }\n",
      );
      const run = await runCli(
        ['plan', '-m', 'config.example/manifests', '--sandbox', '--format', 'json', '--policy', policy],
        {},
      );
      expect(run.code, run.stderr).toBe(0);
      const doc = JSON.parse(run.stdout) as {
        steps: unknown[];
        scopes: unknown;
        policy: { decision: string; fired: { error?: string }[] };
      };
      expect(planSchemaProblems(run.stdout)).toEqual([]);
      expect(doc.steps.length).toBeGreaterThan(0);
      expect(doc.scopes).toBeDefined();
      expect(doc.policy.decision).toBe('require-approval');
      expect(doc.policy.fired.some((f) => f.error !== undefined)).toBe(true);
    } finally {
      tmp.remove();
    }
  });
});
