/**
 * Policies through the CLI: `plan` lists the rules that fired and who may approve (the markdown is what the pull
 * request's comment shows), `apply` refuses on deny and on require-approval (exit 3, like the safety gate, nothing
 * written) unless --approved names the checksum of exactly the plan it would apply.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { startFakeGitHub, type FakeGitHub } from '../github/fake-github.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('docops-policy-cli-');
afterAll(() => tmp.remove());

const RULES = `approvers: { githubTeam: acme/security }
rules:
  - name: member-roles
    when: change.kind == "Members" && "role" in change.fields
    outcome: require-approval
    message: Role changes need a second pair of eyes
  - name: new-teams
    when: change.kind == "Team" && change.action == "create"
    outcome: warn
    message: A new team
`;
const DENY = `rules:\n  - name: no-sites\n    when: change.kind == "Site"\n    outcome: deny\n    message: No sites from this repository\n`;

let n = 0;
/** A fresh sandbox kept in a file, so apply's writes are seen by the next command. */
const state = (): string => `${tmp.dir}/state-${++n}.json`;
const policy = (text: string): string => tmp.write(`policy-${++n}.yaml`, text);
const plan = (st: string, extra: string[]) =>
  runCli(['plan', '-m', 'config.example/manifests', '--sandbox-state', st, ...extra], {});
const apply = (st: string, extra: string[]) =>
  runCli(['apply', '-m', 'config.example/manifests', '--sandbox-state', st, ...extra], {});

describe('policy in plan and apply', () => {
  it('plan shows which rules fired on which manifest lines, and the approval checksum', async () => {
    const run = await plan(state(), ['--policy', policy(RULES)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Policy: 2 of 2 rules fired — require-approval: it is applied once approved\.$/m);
    expect(run.stdout).toMatch(
      /^ {2}require-approval member-roles: Role changes need a second pair of eyes\n {4}- Members org-demo\/frank@acme\.test \(config\.example\/manifests\/members\.yaml:16:7\)$/m,
    );
    expect(run.stdout).toMatch(/^ {2}warn new-teams: A new team$/m);
    expect(run.stdout).toMatch(
      /a member of the GitHub team acme\/security comments "\/docops approve sha256:[0-9a-f]{64}" on the pull request/,
    );
  });

  it('the markdown plan (the pull-request comment) lists the fired rules and who may approve; pr-comment posts it', async () => {
    const run = await plan(state(), ['--policy', policy(RULES), '--format', 'markdown']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      ':raised_hand: **require-approval** `member-roles`: Role changes need a second pair of eyes',
    );
    expect(run.stdout).toContain('members.yaml:16:7');
    expect(run.stdout).toMatch(
      /\*\*Approval needed\.\*\* To approve exactly this plan: a member of the GitHub team acme\/security comments/,
    );
    expect(run.stdout).toMatch(/```\n\/docops approve sha256:[0-9a-f]{64}\n```/);
    const github: FakeGitHub = await startFakeGitHub({
      token: 'ghs_ci_token_0123456789abcd',
      owner: 'acme',
      repo: 'docs-org',
      issue: 3,
    });
    try {
      const body = tmp.write(`plan-${++n}.md`, run.stdout);
      const posted = await runCli(['pr-comment', '--body-file', body, '--pr', '3'], {
        GITHUB_TOKEN: 'ghs_ci_token_0123456789abcd',
        GITHUB_API_URL: github.url,
        GITHUB_REPOSITORY: 'acme/docs-org',
      });
      expect(posted.code, posted.stderr).toBe(0);
      expect(github.comments[0]!.body).toContain('`member-roles`');
      expect(github.comments[0]!.body).toContain('acme/security');
    } finally {
      await github.close();
    }
  });

  it('apply refuses a plan a deny rule fired on: exit 3, nothing written', async () => {
    const st = state();
    const run = await apply(st, ['--policy', policy(DENY)]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/policy refused the plan: 1 deny rule\(s\) fired/);
    expect(run.stderr).toContain('[deny no-sites] Site org-demo/Acme Help Center: No sites from this repository');
    const after = await plan(st, ['--format', 'json']);
    expect((JSON.parse(after.stdout) as { steps: unknown[] }).steps.length).toBeGreaterThan(0); // still all to do
  });

  it('apply refuses a plan that needs approval, applies it with --approved of its checksum, refuses another checksum', async () => {
    const st = state();
    const p = policy(RULES);
    const refused = await apply(st, ['--policy', p]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/this plan needs an approval.*--approved sha256:[0-9a-f]{64}/);
    const planned = await plan(st, ['--policy', p, '--format', 'json']);
    const checksum = (JSON.parse(planned.stdout) as { policy: { approval: { checksum: string } } }).policy.approval
      .checksum;
    expect(checksum).toMatch(/^sha256:[0-9a-f]{64}$/);

    const other = await apply(st, ['--policy', p, '--approved', 'sha256:' + 'f'.repeat(64)]);
    expect(other.code).toBe(3);
    expect(other.stderr).toContain('names another plan');

    const ok = await apply(st, ['--policy', p, '--approved', checksum]);
    expect(ok.code, ok.stderr).toBe(0);
    const after = await plan(st, ['--format', 'json']);
    expect((JSON.parse(after.stdout) as { steps: unknown[] }).steps).toEqual([]);
  });

  it('a bad policy fails before anything is read, with file:line:column', async () => {
    const run = await plan(state(), [
      '--policy',
      policy('rules:\n  - { name: r, when: \'change.kidn == "x"\', outcome: deny, message: m }\n'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/policy-\d+\.yaml:2:30: rule r: when: No such key: kidn/);
  });
});
