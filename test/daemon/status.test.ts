/**
 * The status page's HTTP side: GET / (HTML), GET /api/status and GET /api/runs/{n} show the mode, role, revision,
 * load errors, runs and the last plan's drift; n must be an integer of a kept run (404 otherwise); every other
 * method is 405; user text is escaped; registered secrets never appear; `statusPage: false` turns it all off.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestsRevision } from '../../src/daemon/status/revision.js';
import { CAROL, membersYaml, teamYaml } from '../audit/fixtures.js';
import { startTestDaemon, type TestDaemon } from './helpers.js';

const running: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});

async function start(files: Record<string, string>, config = {}): Promise<TestDaemon> {
  const d = await startTestDaemon({
    files,
    config: { schedule: '* * * * *', ...config },
    sandbox: { actorTokens: [CAROL] },
  });
  running.push(d);
  return d;
}

describe('status endpoints', () => {
  it('JSON: mode, role, revision, the run history and the drift of the last plan with its outcome', async () => {
    const d = await start({ 'members.yaml': membersYaml({ frank: 'comment' }) });
    const res = await d.get('/api/status');
    expect(res.status).toBe(200);
    const s = JSON.parse(res.text);
    expect(s.daemon).toMatchObject({ mode: 'apply', role: 'single', schedule: '* * * * *', ready: true });
    expect(s.manifests).toMatchObject({
      ok: true,
      problems: [],
      revision: { source: 'digest', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(s.runs).toEqual([
      expect.objectContaining({ id: 1, result: 'success', reasons: ['start'], planned: 1, applied: 1, failed: 0 }),
    ]);
    expect(s.drift.byKind).toEqual([
      {
        kind: 'Members',
        steps: [
          expect.objectContaining({
            key: 'frank@acme.test',
            action: 'update',
            outcome: 'applied',
            changes: [{ field: 'role', live: '"read"', desired: '"comment"' }],
          }),
        ],
      },
    ]);

    const run = await d.get('/api/runs/1');
    expect(run.status).toBe(200);
    expect(JSON.parse(run.text)).toMatchObject({ id: 1, result: 'success', drift: { run: 1, total: 1 } });
    for (const bad of ['0', '2', 'abc', '1x', '-1', '1.0', '01', '99999999999', ''])
      expect((await d.get(`/api/runs/${bad}`)).status, bad).toBe(404);
    for (const path of ['/', '/api/status', '/api/runs/1']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const r = await fetch(d.daemon.url + path, { method });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.get('allow')).toBe('GET, HEAD');
      }
    }
  });

  it("a manifest edit reads as one, old → new, with no live author; a change behind docops's back reads as drift", async () => {
    const platform = (title: string): string =>
      [
        'apiVersion: docops/v1',
        'kind: Team',
        'metadata: { organization: org-demo }',
        'spec:',
        `  title: ${title}`,
        '  id: team-platform',
      ].join('\n') + '\n';
    const d = await start({ 'members.yaml': membersYaml(), 'platform.yaml': platform('Platform') });
    // The first run has no earlier success to compare with: nobody can tell, and it says neither.
    const first = JSON.parse((await d.get('/api/status')).text);
    expect(first.drift.total).toBe(0);

    const edited = d.nextRun();
    d.write('platform.yaml', platform('Platform Engineering'));
    expect(await edited).toMatchObject({ result: 'success', applied: 1 });
    const s = JSON.parse((await d.get('/api/status')).text);
    expect(s.drift.byKind).toEqual([
      {
        kind: 'Team',
        steps: [
          expect.objectContaining({
            origin: 'manifests',
            changedBy: null,
            outcome: 'applied',
            sentence: 'Team Platform Engineering: title Platform → Platform Engineering (manifest change)',
          }),
        ],
      },
    ]);
    const html = await (await fetch(d.daemon.url + '/')).text();
    expect(html).toContain('manifest edit');
    expect(html).not.toContain('applied (reverted)');

    // Carol changes a role in the web app: drift, by her, reverted.
    const res = await fetch(`${d.sandbox.url}/orgs/org-demo/members/u-bob`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${CAROL.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'admin' }),
    });
    expect(res.status).toBe(200);
    const scheduled = d.nextRun();
    d.scheduler.tick();
    await scheduled;
    const drift = JSON.parse((await d.get('/api/status')).text);
    expect(drift.drift.byKind).toEqual([
      {
        kind: 'Members',
        steps: [
          expect.objectContaining({
            origin: 'drift',
            outcome: 'applied',
            changedBy: expect.objectContaining({ actor: 'carol@acme.test' }),
            sentence: expect.stringMatching(/^Members role of bob@acme\.test changed to admin by carol@acme\.test at /),
          }),
        ],
      },
    ]);
    expect(await (await fetch(d.daemon.url + '/')).text()).toContain('applied (reverted)');
  });

  it('HTML: escapes user text, never shows a registered secret, sends a strict CSP and no script', async () => {
    const evil = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const d = await start({
      'members.yaml': membersYaml(),
      'evil.yaml': teamYaml(evil, ['bob@acme.test']),
      'leak.yaml': teamYaml(`leak ${'sandbox-token'}`, []),
    });
    const res = await fetch(d.daemon.url + '/');
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain(d.sandbox.token);
    expect(html).toContain('leak [redacted]');
    expect((await d.get('/api/status')).text).not.toContain(d.sandbox.token);
    expect(html).toMatch(/<meta http-equiv="refresh" content="\d+">/);
  });

  it('load errors with file:line and message, relative to the manifests directory', async () => {
    const d = await start({ 'members.yaml': membersYaml() });
    const invalid = d.nextRun((r) => r.result === 'invalid_manifests');
    mkdirSync(join(d.dir, 'teams'));
    d.write(
      'teams/broken.yaml',
      'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-demo }\nspec: { title: 7 }\n',
    );
    await invalid;
    const s = JSON.parse((await d.get('/api/status')).text);
    expect(s.manifests.ok).toBe(false);
    expect(s.manifests.problems).toEqual([
      expect.objectContaining({ file: 'teams/broken.yaml', line: 4, message: expect.stringContaining('title') }),
    ]);
    expect(s.runs[0]).toMatchObject({ result: 'invalid_manifests', problems: 1 });
    expect(s.daemon.ready).toBe(false);
  });

  it('statusPage: false serves none of it', async () => {
    const d = await start({ 'members.yaml': membersYaml() }, { statusPage: false });
    for (const path of ['/', '/api/status', '/api/runs/1']) expect((await d.get(path)).status, path).toBe(404);
    expect((await d.get('/healthz')).status).toBe(200);
  });
});

describe('manifests revision', () => {
  it('reads the commit of a git checkout (loose ref, packed ref, detached HEAD, worktree gitdir), else digests the files', async () => {
    const sha = 'a'.repeat(40);
    const repo = mkdtempSync(join(tmpdir(), 'docops-git-'));
    mkdirSync(join(repo, '.git/refs/heads'), { recursive: true });
    mkdirSync(join(repo, 'manifests'));
    writeFileSync(join(repo, '.git/HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(repo, '.git/refs/heads/main'), `${sha}\n`);
    expect(await manifestsRevision(join(repo, 'manifests'))).toEqual({
      source: 'git',
      commit: sha,
      ref: 'refs/heads/main',
    });
    writeFileSync(join(repo, '.git/HEAD'), 'ref: refs/heads/packed\n');
    writeFileSync(join(repo, '.git/packed-refs'), `# pack-refs\n${'b'.repeat(40)} refs/heads/packed\n`);
    expect(await manifestsRevision(repo)).toEqual({ source: 'git', commit: 'b'.repeat(40), ref: 'refs/heads/packed' });
    writeFileSync(join(repo, '.git/HEAD'), `${'c'.repeat(40)}\n`);
    expect(await manifestsRevision(repo)).toEqual({ source: 'git', commit: 'c'.repeat(40) });

    const wt = mkdtempSync(join(tmpdir(), 'docops-wt-'));
    mkdirSync(join(repo, '.git/worktrees/wt'), { recursive: true });
    writeFileSync(join(repo, '.git/worktrees/wt/HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(repo, '.git/worktrees/wt/commondir'), '../..\n');
    writeFileSync(join(wt, '.git'), `gitdir: ${join(repo, '.git/worktrees/wt')}\n`);
    expect(await manifestsRevision(wt)).toEqual({ source: 'git', commit: sha, ref: 'refs/heads/main' });

    const plain = mkdtempSync(join(tmpdir(), 'docops-plain-'));
    writeFileSync(join(plain, 'a.yaml'), 'x: 1\n');
    const first = await manifestsRevision(plain);
    writeFileSync(join(plain, 'a.yaml'), 'x: 2\n');
    const second = await manifestsRevision(plain);
    expect(first).toMatchObject({ source: 'digest' });
    expect(second).toMatchObject({ source: 'digest' });
    expect(first).not.toEqual(second);
  });
});
