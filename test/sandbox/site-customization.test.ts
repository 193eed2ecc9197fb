/**
 * Site customization over HTTP: defaults of a new site, PUT of the whole object and the round trip docops relies
 * on (read, change some fields, PUT the whole object back, read exactly that), refusals, 404s, the site-delete
 * cascade, and persistence (with content grants) through the state file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultCustomization } from '../../packages/sandbox/src/customization.js';
import { sandbox, type Json } from './helpers.js';
import { SPEC_REFUSES, UNKNOWN_FIELDS, richCustomization } from './customization-bodies.js';
import { SITES, newSite } from './site-fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const withoutStamp = (b: Json): Json => {
  const { updatedAt: _stamp, ...rest } = b;
  return rest;
};

describe('site customization', () => {
  it('a new site answers every required member with defaults, stamped with the site creation time', async () => {
    const { call } = await sandbox({ now: () => new Date('2025-02-01T10:00:00Z') });
    const site = await newSite(call, { title: 'Help' });
    const res = await call('GET', `${site.path}/customization`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...defaultCustomization(), updatedAt: site.body.createdAt });
    expect(res.body.styling).toMatchObject({ theme: 'clean', font: 'Inter', corners: 'rounded' });
    expect(res.body.header).toEqual({ preset: 'default', links: [] });
    expect((await call('GET', `${site.path}/customization?unmasked=true`)).body).toEqual(res.body);
  });

  it('round trip: GET, change some fields, PUT the whole object back (200), GET answers exactly what was stored', async () => {
    let t = Date.parse('2025-02-01T10:00:00Z');
    const { call } = await sandbox({ now: () => new Date(t) });
    const site = await newSite(call, { title: 'Help' });
    const url = `${site.path}/customization`;
    const body = richCustomization((await call('GET', url)).body);
    t += 60_000;
    const put = await call('PUT', url, body);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ ...body, updatedAt: '2025-02-01T10:01:00.000Z' });
    const read = await call('GET', url);
    expect(read.body).toEqual(put.body);

    // What GET answers, less updatedAt, is a valid PUT body that changes nothing but the stamp.
    t += 60_000;
    const again = await call('PUT', url, withoutStamp(read.body));
    expect(again.status).toBe(200);
    expect(withoutStamp(again.body)).toEqual(body);
    expect(again.body.updatedAt).toBe('2025-02-01T10:02:00.000Z');

    // PUT replaces the whole object: optional members left out are gone.
    const smaller = withoutStamp(read.body);
    delete smaller.title;
    delete smaller.announcement;
    const replaced = await call('PUT', url, smaller);
    expect(replaced.status).toBe(200);
    expect(replaced.body.title).toBeUndefined();
    expect(replaced.body.announcement).toBeUndefined();
    expect(withoutStamp((await call('GET', url)).body)).toEqual(smaller);
    // Customizations are per site.
    const other = await newSite(call, { title: 'Other' });
    expect(withoutStamp((await call('GET', `${other.path}/customization`)).body)).toEqual(defaultCustomization());
  });

  it.each([...SPEC_REFUSES, ...UNKNOWN_FIELDS])(
    'refuses %s with a 400 naming the field, keeping what was stored',
    async (_name, change, message) => {
      const { call } = await sandbox();
      const site = await newSite(call, { title: 'Help' });
      const url = `${site.path}/customization`;
      const before = (await call('GET', url)).body;
      const body = richCustomization(before);
      change(body);
      const res = await call('PUT', url, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(message) } });
      expect((await call('GET', url)).body).toEqual(before);
    },
  );

  it('refuses a missing body (400) and answers 404 for an unknown site', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    expect((await call('PUT', `${site.path}/customization`)).status).toBe(400);
    expect((await call('PUT', `${site.path}/customization`, {})).status).toBe(400);
    expect((await call('GET', `${SITES}/site-nope/customization`)).status).toBe(404);
    expect((await call('PUT', `${SITES}/site-nope/customization`, defaultCustomization())).status).toBe(404);
  });

  it('deleting the site deletes its customization', async () => {
    const { call, sb } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    expect(
      (await call('PUT', `${site.path}/customization`, { ...defaultCustomization(), title: 'Kept?' })).status,
    ).toBe(200);
    expect(sb.store.table('siteCustomizations').has(site.id)).toBe(true);
    expect((await call('DELETE', site.path)).status).toBe(205);
    expect(sb.store.table('siteCustomizations').has(site.id)).toBe(false);
    expect((await call('GET', `${site.path}/customization`)).status).toBe(404);
  });

  it('customizations and content grants persist in the state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docops-sandbox-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.json');
    const a = await sandbox({ stateFile });
    const site = await newSite(a.call, { title: 'Help' });
    const custom = { ...defaultCustomization(), title: 'Stored' };
    const put = await a.call('PUT', `${site.path}/customization`, custom);
    expect((await a.call('POST', `${site.path}/permissions`, { role: 'read', teams: ['team-support'] })).status).toBe(
      204,
    );
    expect((await a.call('POST', '/spaces/sp-api/permissions', { role: 'edit', users: ['u-bob'] })).status).toBe(204);
    await a.sb.close();

    const b = await sandbox({ stateFile });
    expect((await b.call('GET', `${site.path}/customization`)).body).toEqual(put.body);
    expect(
      (await b.call('GET', `${site.path}/permissions/teams`)).body.items.map(
        (x: Json) => `${x.team.id}:${x.permission}`,
      ),
    ).toEqual(['team-support:read']);
    expect(
      (await b.call('GET', '/spaces/sp-api/permissions/users')).body.items.map(
        (x: Json) => `${x.user.id}:${x.permission}`,
      ),
    ).toEqual(['u-bob:edit']);
  });
});
