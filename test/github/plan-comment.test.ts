/**
 * `docops pr-comment` against a local stand-in for the GitHub API: one comment per pull request, created once,
 * then edited in place (found by its marker across pages of comments), never a second one; cut to GitHub's limit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GITHUB_COMMENT_LIMIT, TRUNCATED_NOTE, commentBody } from '../../src/github/plan-comment.js';
import { runCli } from '../cli/run-cli.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const TOKEN = 'ghs_fake_token_for_tests_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'docops-pr-comment-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let github: FakeGitHub;
beforeEach(async () => {
  github = await startFakeGitHub({ token: TOKEN, owner: 'acme', repo: 'docs-org', issue: 7 });
  // Other people talked first: the bot's comment lands on the third page (two comments a page).
  for (let i = 0; i < 5; i++)
    github.comments.push({ id: i + 1, body: `LGTM ${i}`, user: { login: `dev${i}`, type: 'User' } });
});
afterEach(() => github.close());

let files = 0;
async function post(markdown: string, extra: string[] = [], env: Record<string, string> = {}) {
  const file = join(dir, `plan-${++files}.md`);
  writeFileSync(file, markdown);
  return runCli(['pr-comment', '--body-file', file, ...extra], {
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: github.url,
    GITHUB_REPOSITORY: 'acme/docs-org',
    ...env,
  });
}

/** The requests that change something (GraphQL's `viewer` query, how docops learns its own login, is a read). */
const writes = (g: FakeGitHub): string[] => g.requests.filter((r) => !r.startsWith('GET ') && r !== 'POST /graphql');

describe('docops pr-comment', () => {
  it('creates the comment, then updates that one on every push, then says "no changes" in it', async () => {
    const first = await post('### docops plan\n\n**Plan: 1 to add, 0 to change, 0 to delete.**\n', ['--pr', '7']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^created the plan comment: https:\/\/github\.test\/acme\/docs-org\/pull\/7#issuecomment-1000$/m,
    );
    expect(github.comments).toHaveLength(6);
    const ours = github.comments[5]!;
    expect(ours.body.startsWith('<!-- docops-plan -->\n### docops plan')).toBe(true);

    const second = await post('### docops plan\n\n**Plan: 2 to add, 1 to change, 0 to delete.**\n', ['--pr', '7']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('updated the plan comment');
    expect(github.comments).toHaveLength(6); // edited in place, found on the third page
    expect(ours.body).toContain('2 to add, 1 to change');
    expect(github.requests.filter((r) => r.startsWith('GET ')).length).toBeGreaterThanOrEqual(6); // 3 pages per run

    const third = await post('### docops plan\n\nNo changes. Live state matches the manifests.\n', ['--pr', '7']);
    expect(third.stdout).toContain('updated the plan comment');
    expect(ours.body).toContain('No changes.');
    expect(github.comments).toHaveLength(6);

    const before = writes(github).length;
    const again = await post('### docops plan\n\nNo changes. Live state matches the manifests.\n', ['--pr', '7']);
    expect(again.stdout).toContain('the plan comment is up to date');
    expect(writes(github)).toHaveLength(before); // nothing sent when nothing changed
    expect(writes(github)).toEqual([
      'POST /repos/acme/docs-org/issues/7/comments',
      'PATCH /repos/acme/docs-org/issues/comments/1000',
      'PATCH /repos/acme/docs-org/issues/comments/1000',
    ]);
    for (const run of [first, second, third, again]) expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it('takes the pull request from the workflow event, and adds the commit and run to the footer', async () => {
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
    const run = await post('plan text\n', [], {
      GITHUB_EVENT_PATH: event,
      GITHUB_SHA: 'abcdef1234567',
      GITHUB_SERVER_URL: 'https://github.test',
      GITHUB_RUN_ID: '99',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(github.comments.at(-1)!.body).toBe(
      '<!-- docops-plan -->\nplan text\n\n<sub>Commit abcdef1 · [run](https://github.test/acme/docs-org/actions/runs/99)</sub>\n',
    );
  });

  it("a plan past GitHub's limit is cut at a line, says so, and is accepted", async () => {
    const huge = Array.from(
      { length: 3000 },
      (_, i) => `+ Members org/user${i}@example.test role: "read" and some more text`,
    ).join('\n');
    expect(huge.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    const run = await post(huge, ['--pr', '7']);
    expect(run.code, run.stderr).toBe(0);
    const body = github.comments.at(-1)!.body;
    expect(body.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(body).toContain(TRUNCATED_NOTE);
    expect(body).toMatch(/example\.test role: "read" and some more text\n…\n/); // whole lines only
    expect(run.stderr).toContain('truncated');
  });

  it('keeps a second comment apart with its own marker', async () => {
    await post('production plan\n', ['--pr', '7']);
    await post('staging plan\n', ['--pr', '7', '--marker', 'docops-plan-staging']);
    expect(github.comments.map((c) => c.body.split('\n')[0])).toEqual([
      ...Array(5)
        .fill(undefined)
        .map((_, i) => `LGTM ${i}`),
      '<!-- docops-plan -->',
      '<!-- docops-plan-staging -->',
    ]);
  });

  it('says what is missing: the token, the pull request', async () => {
    expect((await post('x', ['--pr', '7'], { GITHUB_TOKEN: '' })).stderr).toContain('set GITHUB_TOKEN');
    expect((await post('x')).stderr).toContain('pass --pr N');
  });

  it('commentBody leaves a body under the limit as it is', () => {
    expect(commentBody('small\n', { marker: 'm' })).toEqual({ body: '<!-- m -->\nsmall\n', truncated: false });
  });
});
