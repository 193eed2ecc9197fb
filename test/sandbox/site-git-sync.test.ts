/**
 * Site.gitSync in the sandbox: set through the admin surface (PUT /_sandbox/sites/{id}/git-sync), answered on the
 * site and in the sites list in the official spec's shape (GitSyncState), cleared with null, and kept in the state.
 */
import { describe, expect, it } from 'vitest';
import { responseValidator } from './contract-spec.js';
import { sandbox } from './helpers.js';
import { SITES, newSite } from './site-fixture.js';

const STATE = {
  installationId: 'inst-1',
  installationProvider: 'github',
  installationStatus: 'active',
  repoName: 'acme/docs',
  url: 'https://github.com/acme/docs/tree/main',
  operation: {
    state: 'success',
    direction: 'import',
    startedAt: '2026-11-20T10:00:00.000Z',
    endedAt: '2026-11-20T10:00:05.000Z',
  },
  updatedAt: '2026-11-20T10:00:05.000Z',
};

const admin = (origin: string, site: string, body: unknown): Promise<Response> =>
  fetch(`${origin}/_sandbox/sites/${site}/git-sync`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('Site.gitSync', () => {
  it('is absent until set, then answered on the site and in the list as the spec says, and cleared by null', async () => {
    const { sb, call } = await sandbox();
    const origin = sb.url.replace(/\/v1$/, '');
    const site = await newSite(call, { title: 'Docs' });
    expect(site.body).not.toHaveProperty('gitSync');

    const set = await admin(origin, site.id, STATE);
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ gitSync: STATE });
    const got = await call('GET', site.path);
    expect(got.body.gitSync).toEqual(STATE);
    const validGet = responseValidator('GET', '/orgs/{organizationId}/sites/{siteId}', 200);
    expect(validGet(got.body), JSON.stringify(validGet.errors)).toBe(true);
    const list = await call('GET', SITES);
    expect(list.body.items[0].gitSync).toEqual(STATE);
    const validList = responseValidator('GET', '/orgs/{organizationId}/sites', 200);
    expect(validList(list.body), JSON.stringify(validList.errors)).toBe(true);
    expect(JSON.stringify(sb.store.snapshot())).toContain('acme/docs');

    expect((await admin(origin, site.id, null)).status).toBe(200);
    expect((await call('GET', site.path)).body).not.toHaveProperty('gitSync');
  });

  it('refuses what GitSyncState is not, and a site that does not exist', async () => {
    const { sb, call } = await sandbox();
    const origin = sb.url.replace(/\/v1$/, '');
    const site = await newSite(call, { title: 'Docs' });
    const missing = await admin(origin, site.id, { repoName: 'acme/docs' });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /installationId: is required/,
    );
    expect((await admin(origin, site.id, { ...STATE, installationStatus: 'on' })).status).toBe(400);
    expect((await admin(origin, site.id, { ...STATE, extra: 1 })).status).toBe(400);
    expect((await admin(origin, 'site-nope', STATE)).status).toBe(404);
  });
});
