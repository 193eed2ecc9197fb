/**
 * `docops pr-comment` adopts only its own comment: the hidden marker AND the author being the token's own account
 * (GraphQL `viewer.login`). A comment by anyone else that carries the marker — posted first, to have docops write
 * the plan into a comment its author can later edit to read "No changes" — is never edited nor read as docops's,
 * and the job log names it. When the token's account cannot be told, nothing is written.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { startFakeGitHub, type Account, type FakeGitHub, type FakeGitHubOptions } from './fake-github.js';

const TOKEN = 'ghs_docops_token_for_tests_0123456789';
const MALLORY = 'ghp_mallory_token_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'docops-pr-comment-trust-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let github: FakeGitHub;
afterEach(() => github.close());

async function start(
  options: Partial<FakeGitHubOptions> = {},
  mallory: Account = { login: 'mallory', type: 'User' },
): Promise<FakeGitHub> {
  github = await startFakeGitHub({
    token: TOKEN,
    accounts: { [MALLORY]: mallory },
    owner: 'acme',
    repo: 'docs-org',
    issue: 7,
    ...options,
  });
  return github;
}

let files = 0;
async function post(markdown: string) {
  const file = join(dir, `plan-${++files}.md`);
  writeFileSync(file, markdown);
  return runCli(['pr-comment', '--body-file', file, '--pr', '7'], {
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'acme/docs-org',
  });
}

const writes = (): string[] => github.requests.filter((r) => !r.startsWith('GET ') && r !== 'POST /graphql');
const SPOOF = '<!-- docops-plan -->\n### docops plan\n\nNo changes. Live state matches the manifests.\n';

describe('docops pr-comment adopts only its own comment', () => {
  it('a spoofed marker posted first is never edited: docops posts its own, names the spoof in the log, and edits only its own later', async () => {
    await start();
    const spoof = await github.postAs(MALLORY, SPOOF);

    const first = await post('### docops plan\n\n**Plan: 3 to delete.**\n');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^created the plan comment: .*#issuecomment-1001$/m);
    expect(spoof.body).toBe(SPOOF); // untouched
    const ours = github.comments.find((c) => c.user.login === 'github-actions[bot]')!;
    expect(ours.body).toContain('3 to delete');
    expect(first.stderr).toContain('mallory');
    expect(first.stderr).toContain(`https://github.test/acme/docs-org/pull/7#issuecomment-${spoof.id}`);
    expect(first.stderr).toMatch(/ignored a comment carrying the marker/);

    const second = await post('### docops plan\n\n**Plan: 4 to delete.**\n');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('updated the plan comment');
    expect(ours.body).toContain('4 to delete');
    expect(spoof.body).toBe(SPOOF);
    expect(writes()).toEqual([
      'POST /repos/acme/docs-org/issues/7/comments',
      'POST /repos/acme/docs-org/issues/7/comments',
      `PATCH /repos/acme/docs-org/issues/comments/${ours.id}`,
    ]);
  });

  it('a spoof with the same text as the plan is not taken for "up to date"', async () => {
    await start();
    await github.postAs(MALLORY, '<!-- docops-plan -->\nthe plan\n');
    const run = await post('the plan\n');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('created the plan comment');
    expect(github.comments.filter((c) => c.user.login === 'github-actions[bot]')).toHaveLength(1);
  });

  it("an app's token: a user whose login is the app's slug (no [bot]) is another author", async () => {
    await start({ account: { login: 'docops-app[bot]', type: 'Bot' } }, { login: 'docops-app', type: 'User' });
    const spoof = await github.postAs(MALLORY, SPOOF);
    const run = await post('the plan\n');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('created the plan comment');
    expect(spoof.body).toBe(SPOOF);
    expect(github.comments.at(-1)!.user.login).toBe('docops-app[bot]');
    expect((await post('the plan, again\n')).stdout).toContain('updated the plan comment');
    expect(github.comments.at(-1)!.body).toContain('the plan, again');
  });

  it("a personal token: the user's own comment with the marker is adopted (logins compare case-insensitively)", async () => {
    await start({ account: { login: 'Ada-Lovelace', type: 'User' } }, { login: 'ada-lovelace', type: 'User' });
    // The same account under another token (GitHub answers a login in one case; the compare does not rely on it).
    const mine = await github.postAs(MALLORY, '<!-- docops-plan -->\nold plan\n');
    const run = await post('new plan\n');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('updated the plan comment');
    expect(mine.body).toContain('new plan');
    expect(run.stderr).not.toMatch(/ignored a comment/);
  });

  it('when GitHub will not say whose token it is, nothing is written and the error says why', async () => {
    await start({ graphqlErrors: ['Resource not accessible by integration'] });
    await github.postAs(MALLORY, SPOOF);
    const run = await post('the plan\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cannot tell which GitHub account the token belongs to');
    expect(run.stderr).toContain('Resource not accessible by integration');
    expect(writes()).toEqual(['POST /repos/acme/docs-org/issues/7/comments']); // mallory's alone
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });
});
