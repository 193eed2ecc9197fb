import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '@docops/sandbox';
import { request, sandbox } from './helpers.js';

const TEAMS = '/orgs/org-demo/teams';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'docops-sandbox-'));
  dirs.push(d);
  return d;
};

describe('state', () => {
  it('saves after every write and reloads on the next start (ids keep counting)', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    const a = await sandbox({ stateFile: file });
    expect(JSON.parse(readFileSync(file, 'utf8')).tables.orgs[0].id).toBe('org-demo');
    const first = await a.call('PUT', TEAMS, { title: 'Saved' });
    expect(JSON.parse(readFileSync(file, 'utf8')).tables.teams.map((t: { title: string }) => t.title)).toContain(
      'Saved',
    );
    await a.call('GET', TEAMS); // reads do not need to save, but must not break anything
    await a.sb.close();

    const b = await sandbox({ stateFile: file, seed: 'empty' }); // the file wins over the seed
    const teams = await b.call('GET', TEAMS);
    expect(teams.body.items.map((t: { title: string }) => t.title)).toEqual([
      'Platform',
      'Writers',
      'Support',
      'Saved',
    ]);
    const second = await b.call('PUT', TEAMS, { title: 'Next' });
    expect(second.body.id).not.toBe(first.body.id);
    expect(readdirSync(dir)).toEqual(['state.json']); // no temp files left behind
  });

  it('refuses to start from a corrupt state file', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '{"version": 2}');
    await expect(startSandbox({ stateFile: file })).rejects.toThrow(/version must be 1/);
    writeFileSync(file, 'not json');
    await expect(startSandbox({ stateFile: file })).rejects.toThrow(/cannot read sandbox state file/);
  });

  it('the empty seed holds only the organization and the token user', async () => {
    const { call } = await sandbox({ seed: 'empty' });
    expect((await call('GET', '/orgs/org-demo/members')).body.items.map((m: { id: string }) => m.id)).toEqual([
      'u-ada',
    ]);
    expect((await call('GET', TEAMS)).body.count).toBe(0);
    expect((await call('GET', '/orgs/org-demo/spaces')).body.count).toBe(0);
    expect((await call('GET', '/orgs/org-demo/collections')).body.count).toBe(0);
  });

  it('GET/PUT /_sandbox/state read and replace the whole state', async () => {
    const { sb, call } = await sandbox();
    const snap = await request(sb, 'GET', '/_sandbox/state');
    expect(snap.status).toBe(200);
    snap.body.tables.teams = snap.body.tables.teams.filter((t: { id: string }) => t.id === 'team-support');
    expect((await request(sb, 'PUT', '/_sandbox/state', snap.body)).status).toBe(204);
    expect((await call('GET', TEAMS)).body.items.map((t: { id: string }) => t.id)).toEqual(['team-support']);
    const bad = await request(sb, 'PUT', '/_sandbox/state', { version: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/invalid sandbox state snapshot/);
    expect(sb.store.snapshot().tables['teams']).toHaveLength(1);
  });
});

describe('stats', () => {
  it('counts /v1 requests by method, route pattern and status, with the ordered log; /_sandbox is not counted', async () => {
    const { sb, call } = await sandbox();
    await call('GET', '/orgs/org-demo/members');
    await call('GET', '/orgs/org-demo/members/u-bob');
    await call('GET', '/orgs/org-demo/members/u-carol');
    await call('PATCH', '/orgs/org-demo/members/u-carol', { role: 'bad' });
    await call('GET', '/nowhere');
    const stats = (await request(sb, 'GET', '/_sandbox/stats')).body;
    expect(stats.total).toBe(5);
    expect(stats.byMethod).toEqual({ GET: 4, PATCH: 1 });
    expect(stats.byRoute).toEqual({
      'GET /v1/orgs/:organizationId/members': 1,
      'GET /v1/orgs/:organizationId/members/:userId': 2,
      'PATCH /v1/orgs/:organizationId/members/:userId': 1,
      'GET (unmatched)': 1,
    });
    expect(stats.byStatus).toEqual({ '200': 3, '400': 1, '404': 1 });
    expect(stats.requests.map((r: { seq: number; path: string }) => `${r.seq} ${r.path}`)).toEqual([
      '1 /v1/orgs/org-demo/members',
      '2 /v1/orgs/org-demo/members/u-bob',
      '3 /v1/orgs/org-demo/members/u-carol',
      '4 /v1/orgs/org-demo/members/u-carol',
      '5 /v1/nowhere',
    ]);
    expect((await request(sb, 'POST', '/_sandbox/stats/reset')).status).toBe(204);
    expect(sb.stats().total).toBe(0);
    await call('GET', '/user');
    expect(sb.stats().requests).toEqual([{ seq: 1, method: 'GET', route: '/v1/user', path: '/v1/user', status: 200 }]);
    sb.resetStats();
    expect(sb.stats()).toEqual({ total: 0, byMethod: {}, byRoute: {}, byStatus: {}, rateLimited: 0, requests: [] });
  });
});
