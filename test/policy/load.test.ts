/**
 * Bad rules fail validation with file:line:column, like manifests: YAML, shape, CEL syntax and types (pointing
 * into the expression), duplicate names, and a policy that loads no rule (an error, never a pass).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError, ValidationError, formatIssue } from '../../src/model/errors.js';
import { loadPolicyPath } from '../../src/policy/load.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('docops-policy-load-');
afterAll(() => tmp.remove());

let n = 0;
/** Load a policy file with `text`; the issues as `file:line:column: message` lines (file names cut to their base). */
async function problems(text: string): Promise<string[]> {
  const file = tmp.write(`case-${++n}/policy.yaml`, text);
  try {
    await loadPolicyPath(file);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.issues.map((i) => formatIssue({ ...i, file: i.file.replace(/^.*\//, '') }));
  }
  return [];
}

const rule = (when: string, extra = ''): string =>
  `rules:\n  - name: r1\n    when: ${when}\n    outcome: deny\n    message: m\n${extra}`;

describe('policy files', () => {
  it('a valid file loads its rules, with where each is written', async () => {
    const file = tmp.write('ok/policy.yaml', 'apiVersion: docops/v1\nkind: Policy\n' + rule('change.kind == "Site"'));
    const policy = await loadPolicyPath(file);
    expect(policy.rules.map((r) => [r.name, r.outcome, r.source.line, r.whenSource.line, r.whenSource.column])).toEqual(
      [['r1', 'deny', 4, 5, 11]],
    );
  });

  it('a CEL syntax error points at the character in the expression', async () => {
    expect(await problems(rule('change.kind == "Site" &&'))).toEqual([
      expect.stringMatching(/^policy\.yaml:3:35: rule r1: when: /),
    ]);
  });

  it('an unknown variable or field of change is an error at its place (quoted scalars too)', async () => {
    expect(await problems(rule('chnge.kind == "Site"'))).toEqual([
      'policy.yaml:3:11: rule r1: when: Unknown variable: chnge',
    ]);
    expect(await problems(rule('\'change.kidn == "Site"\''))).toEqual([
      'policy.yaml:3:19: rule r1: when: No such key: kidn',
    ]);
  });

  it('an expression that is not true or false is refused', async () => {
    expect(await problems(rule('change.kind'))).toEqual([
      'policy.yaml:3:11: rule r1: when: the expression must be true or false, but it is a string',
    ]);
  });

  it('a literal block maps errors to their line inside the block', async () => {
    const text =
      'rules:\n  - name: r1\n    when: |\n      change.kind == "Site" &&\n        change.after.visibility = "public"\n    outcome: deny\n    message: m\n';
    expect(await problems(text)).toEqual([expect.stringMatching(/^policy\.yaml:5:\d+: rule r1: when: /)]);
  });

  it('comprehensions nest at most two deep (what a rule can cost is bounded)', async () => {
    const deep = 'plan.changes.exists(a, plan.changes.exists(b, plan.changes.exists(c, c.key == a.key)))';
    expect(await problems(rule(deep))).toEqual([
      expect.stringMatching(/^policy\.yaml:3:57: rule r1: when: comprehensions .* nest at most 2 deep$/),
    ]);
    expect(await problems(rule('plan.changes.exists(a, plan.changes.exists(b, b.key == a.key))'))).toEqual([]);
  });

  it('shape problems are at their field: a missing message, an unknown outcome, an unknown key', async () => {
    const text =
      'rules:\n  - name: r1\n    when: change.kind == "Site"\n    outcome: block\n  - name: Bad_Name\n    when: "true"\n    outcome: warn\n    message: m\n    severity: high\n';
    const got = await problems(text);
    expect(got).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^policy\.yaml:2:5: .*message/),
        expect.stringMatching(/^policy\.yaml:4:14: .*outcome/),
        expect.stringMatching(/^policy\.yaml:5:11: .*name/),
        expect.stringMatching(/^policy\.yaml:9:5: .*severity/),
      ]),
    );
  });

  it('two rules with one name are an error at the second', async () => {
    const text =
      rule('change.kind == "Site"') +
      '  - name: r1\n    when: change.kind == "Team"\n    outcome: warn\n    message: m\n';
    expect((await problems(text)).map((l) => l.replace(/\(\S*policy\.yaml/, '(policy.yaml'))).toEqual([
      'policy.yaml:6:11: rule r1: another rule has this name (policy.yaml:2:11); names must be unique',
    ]);
  });

  it('every problem at once: a duplicate name is reported whatever else is wrong with either rule', async () => {
    const second = (when: string, extra = '    message: m\n'): string =>
      `  - name: r1\n    when: ${when}\n    outcome: warn\n${extra}`;
    const dup = 'policy.yaml:6:11: rule r1: another rule has this name (policy.yaml:2:11); names must be unique';
    const clean = (lines: string[]): string[] => lines.map((l) => l.replace(/\(\S*policy\.yaml/, '(policy.yaml'));
    // The earlier rule's expression is wrong, then the later one's.
    expect(clean(await problems(rule('chnge.kind == "Site"') + second('change.kind == "Team"')))).toEqual([
      'policy.yaml:3:11: rule r1: when: Unknown variable: chnge',
      dup,
    ]);
    expect(clean(await problems(rule('change.kind == "Site"') + second('change.kidn == "Team"')))).toEqual([
      'policy.yaml:6:11: rule r1: another rule has this name (policy.yaml:2:11); names must be unique',
      'policy.yaml:7:18: rule r1: when: No such key: kidn',
    ]);
    // A shape problem of either rule (a missing message, a when that is not text).
    expect(clean(await problems(rule('change.kind == "Site"') + second('change.kind == "Team"', '')))).toEqual([
      'policy.yaml:6:5: rules[1]: missing required field "message"',
      dup,
    ]);
    expect(clean(await problems(rule('[1, 2]') + second('change.kind == "Team"')))).toEqual([
      'policy.yaml:3:11: rules[0].when: must be string (got array)',
      dup,
    ]);
  });

  it('the example of the docs: every problem of two files in one run', async () => {
    const dir = tmp.dir + '/docs-example/policies';
    tmp.write(
      'docs-example/policies/sites.yaml',
      [
        'rules:',
        '  - name: public-sites',
        '    description: A site made public by mistake shows internal docs to everyone.',
        '    outcome: deny',
        '    message: Sites stay private',
        '    # the expression ends too early',
        '    when: change.after.visibility == "public" &&',
        '',
        '  # named twice: here and in people.yaml',
        '  - name: admins',
        '    outcome: require-approval',
        '    when: chnge.after.role == "admin"',
        '    message: New admins need an approval',
        '',
        '  - name: owners',
        '    outcome: require-approval',
        '    message: Owners need an approval',
        '    when: change.kidn == "Team"',
        '',
        '  - name: roles',
        '    outcome: warn',
        '    message: A role changes',
        '    # a value, not a condition',
        '    when: change.kind',
        '',
      ].join('\n'),
    );
    tmp.write(
      'docs-example/policies/teams.yaml',
      '# Who may change teams\nrules:\n  - name: admins\n    when: change.kind == "Team"\n    outcome: warn\n    message: m\n',
    );
    const got = await loadPolicyPath(dir).catch((e: unknown) => e);
    expect(got).toBeInstanceOf(ValidationError);
    const lines = (got as ValidationError).issues.map((i) => formatIssue(i).replaceAll(tmp.dir + '/docs-example/', ''));
    // As docs/policy.md, "Validation", shows it.
    expect(lines).toEqual([
      'policies/sites.yaml:7:49: rule public-sites: when: Unexpected token: EOF',
      'policies/sites.yaml:12:11: rule admins: when: Unknown variable: chnge',
      'policies/sites.yaml:18:18: rule owners: when: No such key: kidn',
      'policies/sites.yaml:24:11: rule roles: when: the expression must be true or false, but it is a string',
      'policies/teams.yaml:3:11: rule admins: another rule has this name (policies/sites.yaml:10:11); names must be unique',
    ]);
  });

  it('a YAML error is at its place', async () => {
    expect(await problems('rules:\n  - name: r1\n    when: [unclosed\n')).toEqual([
      expect.stringMatching(/^policy\.yaml:\d+:\d+: /),
    ]);
  });

  it('a policy that loads no rule is an error, never a pass: an empty rule list, an empty folder', async () => {
    expect(await problems('rules: []\n')).toEqual([
      expect.stringMatching(/^policy\.yaml:1:8: .*rules.*(fewer|at least|must NOT have fewer).*/i),
    ]);
    const empty = tmp.write('empty/README.md', 'no policies here\n').replace(/README\.md$/, '');
    await expect(loadPolicyPath(empty)).rejects.toThrow(UsageError);
    await expect(loadPolicyPath(empty)).rejects.toThrow(/no policy file .* never a pass/);
    await expect(loadPolicyPath(tmp.dir + '/missing')).rejects.toThrow(/cannot read policy .*ENOENT/);
  });

  it('a folder: every *.yaml below it, one policy; approvers must agree', async () => {
    tmp.write('folder/a.yaml', 'approvers: { githubTeam: acme/security }\n' + rule('change.kind == "Site"'));
    tmp.write(
      'folder/sub/b.yml',
      'approvers: { githubTeam: acme/other }\nrules:\n  - name: r2\n    when: change.kind == "Team"\n    outcome: warn\n    message: m\n',
    );
    await expect(loadPolicyPath(tmp.dir + '/folder')).rejects.toThrow(
      /b\.yml:1:\d+: approvers: names githubTeam acme\/other, but .*a\.yaml:1 names acme\/security/,
    );
    tmp.write(
      'folder/sub/b.yml',
      'approvers: { githubTeam: acme/security }\nrules:\n  - name: r2\n    when: change.kind == "Team"\n    outcome: warn\n    message: m\n',
    );
    const policy = await loadPolicyPath(tmp.dir + '/folder');
    expect(policy.rules.map((r) => r.name)).toEqual(['r1', 'r2']);
    expect(policy.approvers).toEqual({ githubTeam: 'acme/security' });
  });
});
