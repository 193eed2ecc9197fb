/**
 * Drift adopted as a pull request (docs/daemon.md, "Drift: revert, report or propose"), end to end: the daemon on
 * the sandbox, the manifests' repository on the GitHub stand-in. Changes made in the app by another user (Carol)
 * are kept, written as a minimal edit of the manifests on one branch, in one pull request updated in place; merged,
 * the plan is empty; undone in the app, the pull request is closed; closed unmerged, the next run reverts; a
 * conflicting change on the default branch is never overwritten.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { members as memberRows, teamMembers } from '@docops/sandbox';
import { CAROL, membersYaml } from '../audit/fixtures.js';
import { startTestDaemon, SUPPORT, type TestDaemon } from '../daemon/helpers.js';
import { startFakeGitHub, type FakeGitHub } from '../github/fake-github.js';
import { FakeRepo } from '../github/fake-repo.js';

const GH_TOKEN = 'ghs_drift_proposals_0123456789';
const MEMBERS = `# Who is in the docs org (the identity provider adds people; review roles here)\n${membersYaml()}`;
const FILES = { 'members.yaml': MEMBERS, 'support.yaml': SUPPORT };

interface World {
  d: TestDaemon;
  repo: FakeRepo;
  gh: FakeGitHub;
  /** Carol's write through the API, as the app makes it. */
  app(method: string, path: string, body: unknown): Promise<void>;
  /** One scheduled run. */
  tick(): Promise<{ result: string; planned?: number; applied?: number }>;
  /** The default branch's files reach the daemon's checkout (what a git-sync sidecar does). */
  pull(): Promise<void>;
  status(): Promise<{
    proposal: { pullRequest: { number: number; state: string } | null; problem: string | null; objects: number };
    drift: { total: number; reported: { items: { key: string; outcomeDetail: string | null }[] } };
  }>;
}

const running: World[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) {
    await w.d.stop();
    await w.gh.close();
  }
});

async function world(
  kinds: Record<string, { drift: 'propose' | 'report' }> = {
    Members: { drift: 'propose' },
    Team: { drift: 'propose' },
  },
): Promise<World> {
  const repo = new FakeRepo('acme', 'docs-org', FILES);
  const gh = await startFakeGitHub({ token: GH_TOKEN, owner: 'acme', repo: 'docs-org', issue: 999, repository: repo });
  const d = await startTestDaemon({
    files: FILES,
    sandbox: { actorTokens: [CAROL] },
    config: {
      schedule: '* * * * *',
      kinds,
      proposals: { github: { repository: 'acme/docs-org', apiUrl: gh.url, branch: 'docops/drift', path: '' } },
    },
    deps: { env: { DOCOPS_TOKEN: 'unused', DOCOPS_GITHUB_TOKEN: GH_TOKEN } },
  });
  const w: World = {
    d,
    repo,
    gh,
    async app(method, path, body) {
      const res = await fetch(`${d.sandbox.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${CAROL.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBeLessThan(300);
    },
    async tick() {
      const next = d.nextRun();
      d.scheduler.tick();
      return next;
    },
    async pull() {
      const next = d.nextRun();
      for (const [f, text] of repo.files('main')) d.write(f, text);
      await next;
    },
    async status() {
      return JSON.parse((await d.get('/api/status')).text);
    },
  };
  running.push(w);
  return w;
}

const role = (w: World, user: string): string | null | undefined =>
  memberRows(w.d.sandbox.store).where((m) => m.userId === user)[0]?.role;
const supportMembers = (w: World): string[] =>
  teamMembers(w.d.sandbox.store)
    .where((m) => m.teamId === 'team-support')
    .map((m) => m.userId)
    .sort();

describe('drift: propose', () => {
  it('two objects drift at once: one pull request with a minimal edit of each file; merged, the plan is empty', async () => {
    const w = await world();
    await w.app('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    await w.app('PUT', '/orgs/org-demo/teams/team-support/members', { add: ['u-carol'] });
    expect(await w.tick()).toMatchObject({ result: 'success', planned: 0 });
    // Kept: nothing reverted.
    expect(role(w, 'u-bob')).toBe('admin');
    expect(supportMembers(w)).toEqual(['u-carol', 'u-frank', 'u-ivan']);
    expect(w.repo.pulls.map((p) => [p.number, p.state, p.head, p.base])).toEqual([[1, 'open', 'docops/drift', 'main']]);
    const branch = w.repo.files('docops/drift');
    // Only bob's role changed, byte for byte; the comment line stays.
    expect(branch.get('members.yaml')).toBe(
      MEMBERS.replace('{ email: bob@acme.test, role: edit }', '{ email: bob@acme.test, role: admin }'),
    );
    // The member Carol added, appended in the style of the others.
    expect(branch.get('support.yaml')).toBe(`${SUPPORT}    - { email: carol@acme.test }\n`);
    const body = w.repo.pulls[0]!.body;
    // Who changed what, and when (the audit log).
    expect(body).toMatch(/\| Members org-demo\/bob@acme\.test \| role: "edit" → "admin" \| carol@acme\.test, 20\d\d-/);
    expect(body).toMatch(
      /\| Team org-demo\/Support \| members\.carol@acme\.test: \(unset\) → "member" \| carol@acme\.test, /,
    );
    expect((await w.status()).proposal).toMatchObject({
      pullRequest: { number: 1, state: 'open' },
      objects: 2,
      problem: null,
    });
    expect((await w.status()).drift.reported.items.map((i) => i.outcomeDetail)).toEqual([
      'drift propose: proposed as a manifest change, not reverted',
      'drift propose: proposed as a manifest change, not reverted',
    ]);

    // More drift while it is open: the same pull request, updated in place.
    await w.app('PATCH', '/orgs/org-demo/members/u-dan', { role: 'edit' });
    expect(await w.tick()).toMatchObject({ result: 'success', planned: 0 });
    expect(w.repo.pulls).toHaveLength(1);
    expect(w.repo.files('docops/drift').get('members.yaml')).toContain('{ email: dan@acme.test, role: edit }');

    w.repo.merge(1);
    await w.pull();
    const after = await w.tick();
    expect(after).toMatchObject({ result: 'success', planned: 0 });
    expect((await w.status()).drift).toMatchObject({ total: 0, reported: { items: [] } });
    expect((await w.status()).proposal.pullRequest).toMatchObject({ number: 1, state: 'merged' });
    expect(role(w, 'u-bob')).toBe('admin');
    expect(w.repo.pulls).toHaveLength(1);
  });

  it('a drift undone in the app before the merge: the pull request is closed and its branch deleted', async () => {
    const w = await world();
    await w.app('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    await w.tick();
    expect(w.repo.pulls.map((p) => p.state)).toEqual(['open']);
    await w.app('PATCH', '/orgs/org-demo/members/u-bob', { role: 'edit' });
    expect(await w.tick()).toMatchObject({ result: 'success', planned: 0 });
    expect(w.repo.pulls.map((p) => [p.state, p.merged_at])).toEqual([['closed', null]]);
    expect(w.repo.pulls[0]!.comments).toEqual([expect.stringMatching(/^The drift this pull request proposed is gone/)]);
    expect(w.repo.refs.has('docops/drift')).toBe(false);
    expect((await w.status()).proposal).toMatchObject({ pullRequest: { number: 1, state: 'closed' }, objects: 0 });
    // Nothing more is asked of GitHub while there is no drift and nothing open.
    const asked = w.gh.requests.length;
    await w.tick();
    expect(w.gh.requests.length).toBe(asked);
  });

  it('closed unmerged: the next run reverts the drift; the same drift is not proposed again', async () => {
    const w = await world();
    await w.app('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    await w.tick();
    w.repo.close(1);
    expect(await w.tick()).toMatchObject({ result: 'success', planned: 1, applied: 1 });
    expect(role(w, 'u-bob')).toBe('edit');
    expect(await w.tick()).toMatchObject({ result: 'success', planned: 0 });
    expect(w.repo.pulls.map((p) => p.state)).toEqual(['closed']);
  });

  it('a conflicting manifest change on the default branch is never overwritten; once the daemon reads it, git wins', async () => {
    const w = await world();
    await w.app('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    await w.tick();
    const proposed = w.repo.refs.get('docops/drift');
    // Someone sets bob's role in git to something else; the daemon's checkout does not have it yet.
    w.repo.push('main', {
      'members.yaml': MEMBERS.replace('{ email: bob@acme.test, role: edit }', '{ email: bob@acme.test, role: review }'),
    });
    await w.app('PATCH', '/orgs/org-demo/members/u-dan', { role: 'edit' });
    expect(await w.tick()).toMatchObject({ result: 'success', planned: 0 });
    // The new proposal would write bob's line, which main changed: not pushed, said on the status page, nothing reverted.
    expect(w.repo.refs.get('docops/drift')).toBe(proposed);
    expect((await w.status()).proposal.problem).toMatch(
      /^conflict with main: members\.yaml: Members org-demo: spec\.members\.1\.role is "review" there, not "edit"/,
    );
    expect([role(w, 'u-bob'), role(w, 'u-dan')]).toEqual(['admin', 'edit']);

    // The checkout catches up: bob's role is a manifest edit (applied); dan's drift is proposed on the new main.
    await w.pull();
    const run = await w.tick();
    expect(run).toMatchObject({ result: 'success' });
    expect(role(w, 'u-bob')).toBe('review');
    expect(role(w, 'u-dan')).toBe('edit');
    expect(w.repo.pulls.map((p) => [p.number, p.state])).toEqual([[1, 'open']]);
    const file = w.repo.files('docops/drift').get('members.yaml')!;
    expect(file).toContain('{ email: bob@acme.test, role: review }');
    expect(file).toContain('{ email: dan@acme.test, role: edit }');
  });
});

describe('drift: report', () => {
  it('keeps the drift and shows it; a manifest edit is still applied', async () => {
    const w = await world({ Members: { drift: 'report' } });
    await w.app('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    expect(await w.tick()).toMatchObject({ result: 'success', planned: 0 });
    expect(role(w, 'u-bob')).toBe('admin');
    const s = await w.status();
    expect(s.drift.reported.items).toEqual([
      expect.objectContaining({ key: 'bob@acme.test', outcomeDetail: 'drift report: kept, not reverted' }),
    ]);
    expect(w.repo.pulls).toEqual([]);
    const edited = w.d.nextRun();
    w.d.write(
      'members.yaml',
      MEMBERS.replace('{ email: dan@acme.test, role: review }', '{ email: dan@acme.test, role: read }'),
    );
    expect(await edited).toMatchObject({ result: 'success', applied: 1 });
    expect([role(w, 'u-bob'), role(w, 'u-dan')]).toEqual(['admin', 'read']);
  });
});

describe('drift: propose, and a run that plans only part of the organization', () => {
  it('a scoped run (a translation edited) leaves the open proposal as it is: it did not look at that drift', async () => {
    const w = await world();
    const translation = (title: string): string =>
      `apiVersion: docops/v1\nkind: Translation\nmetadata:\n  organization: org-demo\nspec:\n  title: ${title}\n  id: tr-fr\n`;
    const scoped = w.d.nextRun((r) => r.reasons.includes('watch'));
    w.d.write('translation.yaml', translation('French docs'));
    await scoped;
    await w.app('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    await w.tick();
    expect(w.repo.pulls.map((p) => p.state)).toEqual(['open']);
    const proposed = w.repo.files('docops/drift').get('members.yaml');

    const next = w.d.nextRun((r) => r.reasons.includes('watch'));
    w.d.write('translation.yaml', translation('French documentation'));
    expect(await next).toMatchObject({
      result: 'success',
      scope: 'scoped',
      scopes: { reconciled: ['Translation/org-demo'] },
    });
    expect(w.repo.pulls.map((p) => p.state)).toEqual(['open']);
    expect(w.repo.files('docops/drift').get('members.yaml')).toBe(proposed);
    expect(role(w, 'u-bob')).toBe('admin');
  });
});
