/**
 * `docops pr-comment` talks to the configured GitHub API origin only: a redirect to another origin fails the run
 * with its status and is not followed (neither the token, nor the plan, nor the trust in an answer moves), and so
 * does a pagination `Link` naming another origin. A redirect within the API's origin — GitHub's answer for a
 * renamed repository (301 to the new path) — is followed, the token staying where it was configured to go.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { startElsewhere, type Elsewhere } from '../helpers/elsewhere.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const TOKEN = 'ghs_redirect_test_token_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'docops-pr-comment-redirects-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let github: FakeGitHub;
let elsewhere: Elsewhere;
afterEach(async () => {
  await github.close();
  await elsewhere.close();
});

async function start(options: { linkBase?: boolean } = {}): Promise<void> {
  elsewhere = await startElsewhere([]);
  github = await startFakeGitHub({
    token: TOKEN,
    owner: 'acme',
    repo: 'docs-org',
    issue: 7,
    ...(options.linkBase ? { linkBase: elsewhere.origin } : {}),
  });
  for (let i = 0; i < 3; i++)
    github.comments.push({ id: i + 1, body: `LGTM ${i}`, user: { login: `dev${i}`, type: 'User' } });
}

async function post(repo = 'acme/docs-org') {
  const file = join(dir, `plan-${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(file, 'the plan: 3 to delete\n');
  return runCli(['pr-comment', '--body-file', file, '--pr', '7', '--repo', repo], {
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: github.url,
  });
}

describe('docops pr-comment and redirects', () => {
  for (const [what, method, path, status] of [
    ['the comments list', 'GET', '/issues/7/comments', 307],
    ['the comments list', 'GET', '/issues/7/comments', 302],
    ['the comment create', 'POST', '/issues/7/comments', 307],
    ['the comment create', 'POST', '/issues/7/comments', 308],
    ['the identity query', 'POST', '/graphql', 307],
  ] as const) {
    it(`${what} answered ${status} to another origin: not followed, the run fails saying so`, async () => {
      await start();
      github.intercept = (r) =>
        r.method === method && r.pathname.endsWith(path)
          ? { status, headers: { location: `${elsewhere.origin}${r.pathname}` } }
          : undefined;
      const run = await post();
      expect(run.code).toBe(1);
      expect(elsewhere.received).toEqual([]);
      expect(run.stderr).toContain(
        `failed with ${status}: answered a redirect to another origin (${elsewhere.origin}), which docops does not follow`,
      );
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
      expect(github.comments.map((c) => c.body)).toEqual(['LGTM 0', 'LGTM 1', 'LGTM 2']);
    });
  }

  it('a pagination Link naming another origin is not followed: the token never goes there', async () => {
    await start({ linkBase: true });
    const run = await post();
    expect(run.code).toBe(1);
    expect(elsewhere.received).toEqual([]);
    expect(run.stderr).toContain(
      `GET /repos/acme/docs-org/issues/7/comments failed: not sent: ${elsewhere.origin} is not the GitHub API's origin (${github.url})`,
    );
    expect(github.requests.filter((r) => !r.startsWith('GET ') && r !== 'POST /graphql')).toEqual([]);
  });

  it('a renamed repository (GitHub: 301 for a GET, 307 for a write, to the same origin) is followed, reads and writes', async () => {
    await start();
    const moved = (pathname: string): string =>
      `${github.url}${pathname.replace('/repos/acme/old-name/', '/repos/acme/docs-org/')}`;
    github.intercept = (r) =>
      r.pathname.startsWith('/repos/acme/old-name/')
        ? { status: r.method === 'GET' ? 301 : 307, headers: { location: moved(r.pathname) } }
        : undefined;
    const first = await post('acme/old-name');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('created the plan comment');
    const second = await post('acme/old-name');
    expect(second.stdout).toContain('the plan comment is up to date');
    expect(github.comments).toHaveLength(4);
    expect(github.comments[3]!.body).toContain('the plan: 3 to delete');
    expect(github.requests).toContain('POST /repos/acme/old-name/issues/7/comments');
    expect(github.requests).toContain('POST /repos/acme/docs-org/issues/7/comments');
  });
});
