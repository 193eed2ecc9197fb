import { describe, expect, it } from 'vitest';
import { sites } from '../../packages/sandbox/src/site-records.js';
import { sandbox, type Json } from './helpers.js';
import { SITES, ids, newSite, post } from './site-fixture.js';

describe('sites', () => {
  it('the demo seed has no site', async () => {
    const { call } = await sandbox();
    expect((await call('GET', SITES)).body).toEqual({ count: 0, items: [] });
  });

  it('creates with defaults (201 + Location), gets, lists', async () => {
    const { call } = await sandbox();
    const res = await call('POST', SITES);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body.urls.location);
    expect(res.body).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Untitled site',
      visibility: 'public',
      published: false,
      agentsContext: 'excluded',
      adaptiveContent: { enabled: false },
      siteSpaces: 0,
    });
    expect(res.body.urls.published).toBeUndefined();
    const got = await call('GET', `${SITES}/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    expect(ids((await call('GET', SITES)).body.items)).toEqual([res.body.id]);
  });

  it('creates with spaces as root site spaces, or with a new space ("new")', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, {
      title: 'Docs',
      type: 'premium',
      visibility: 'unlisted',
      spaces: ['sp-api', 'sp-changelog', 'sp-api'],
    });
    expect(site.body).toMatchObject({ type: 'premium', visibility: 'unlisted', siteSpaces: 2 });
    const list = (await call('GET', `${site.path}/site-spaces`)).body.items;
    expect(list.map((s: Json) => [s.space.id, s.path, s.default, s.section])).toEqual([
      ['sp-api', 'api-reference', true, undefined],
      ['sp-changelog', 'changelog', false, undefined],
    ]);
    const fresh = await newSite(call, { title: 'Handbook', spaces: 'new' });
    const [only] = (await call('GET', `${fresh.path}/site-spaces`)).body.items;
    expect(only.space).toMatchObject({ title: 'Handbook', visibility: 'private' });
    expect((await call('GET', `/spaces/${only.space.id}`)).status).toBe(200);
  });

  it('rejects bad create bodies and changes nothing', async () => {
    const { call } = await sandbox();
    const cases: [Json, string][] = [
      [{ title: 'x' }, 'body.title'],
      [{ title: 'x'.repeat(129) }, 'body.title'],
      [{ type: 'gold' }, 'body.type'],
      [{ visibility: 'private' }, 'body.visibility'],
      [{ spaces: ['sp-api', 'sp-nope'] }, 'body.spaces[1]'],
      [{ spaces: 'create' }, 'body.spaces'],
      [{ hostname: 'docs.acme.test' }, 'body.hostname: unknown field'],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', SITES, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400 });
      expect(res.body.error.message).toContain(message);
    }
    expect((await call('GET', SITES)).body.count).toBe(0);
    expect((await call('POST', SITES, { title: 'ab' })).status).toBe(201);
    expect((await call('POST', SITES, { title: 'x'.repeat(128) })).status).toBe(201);
  });

  it('filters by title, space and published', async () => {
    const { call, sb } = await sandbox();
    const a = await newSite(call, { title: 'Public Docs', spaces: ['sp-api'] });
    const b = await newSite(call, { title: 'Internal', spaces: ['sp-runbooks'] });
    const rec = sites(sb.store).get(b.id);
    if (rec) sites(sb.store).put({ ...rec, published: true });
    expect(ids((await call('GET', `${SITES}?title=DOCS`)).body.items)).toEqual([a.id]);
    expect(ids((await call('GET', `${SITES}?space=sp-runbooks`)).body.items)).toEqual([b.id]);
    expect(ids((await call('GET', `${SITES}?published=true`)).body.items)).toEqual([b.id]);
    expect(ids((await call('GET', `${SITES}?published=false`)).body.items)).toEqual([a.id]);
    expect((await call('GET', `${SITES}?published=yes`)).status).toBe(400);
    expect((await call('GET', `${SITES}/${b.id}`)).body.urls.published).toMatch(/^https:\/\//);
  });

  it('paginates', async () => {
    const { call } = await sandbox();
    for (let i = 0; i < 3; i++) await newSite(call, { title: `Site ${i}` });
    const first = await call('GET', `${SITES}?limit=2`);
    expect(first.body.count).toBe(2);
    const second = await call('GET', `${SITES}?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((s: Json) => s.title)).toEqual(['Site 2']);
    expect(second.body.next).toBeUndefined();
  });

  it('patches every field; proxy reads back as {origin, target}; null removes it', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Docs' });
    const res = await call('PATCH', site.path, {
      title: 'Acme Docs',
      visibility: 'share-link',
      basename: 'docs',
      adaptiveContent: { enabled: true },
      agentsContext: 'included',
      proxy: 'acme.test/docs',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Acme Docs',
      visibility: 'share-link',
      basename: 'docs',
      adaptiveContent: { enabled: true },
      agentsContext: 'included',
      proxy: { origin: 'acme.test/docs' },
    });
    expect(res.body.proxy.target).toMatch(/^https:\/\/.+\/docs$/);
    expect((await call('PATCH', site.path, { proxy: null })).body.proxy).toBeUndefined();
    expect((await call('GET', site.path)).body.title).toBe('Acme Docs');
  });

  it('checks patch limits at the boundaries', async () => {
    const { call } = await sandbox();
    const site = await newSite(call);
    const ok: Json[] = [
      { basename: 'a' },
      { basename: 'b'.repeat(100) },
      { title: 'ab' },
      { proxy: `a.io/${'p'.repeat(507)}` },
    ];
    for (const body of ok) expect((await call('PATCH', site.path, body)).status, JSON.stringify(body)).toBe(200);
    const bad: [Json, string][] = [
      [{ basename: '' }, 'body.basename'],
      [{ basename: 'b'.repeat(101) }, 'body.basename'],
      [{ title: 'a' }, 'body.title'],
      [{ proxy: `a.io/${'p'.repeat(508)}` }, 'body.proxy'],
      [{ proxy: 'https://acme.test/docs' }, 'body.proxy'],
      [{ agentsContext: 'maybe' }, 'body.agentsContext'],
      [{ adaptiveContent: {} }, 'body.adaptiveContent.enabled'],
      [{ defaultLevel: 'owner' }, 'body.defaultLevel'],
      [{ styleguide: 'sp-nope' }, 'body.styleguide'],
      [{ color: 'red' }, 'unknown field'],
    ];
    for (const [body, message] of bad) {
      const res = await call('PATCH', site.path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
  });

  it('defaultSiteSpace must be at the root or in the default section; defaultSiteSection must be a section', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { spaces: ['sp-api', 'sp-changelog'] });
    const root = (await call('GET', `${site.path}/site-spaces`)).body.items;
    expect((await call('PATCH', site.path, { defaultSiteSpace: root[1].id })).status).toBe(200);
    expect((await call('GET', `${site.path}/site-spaces?default=true`)).body.items.map((s: Json) => s.id)).toEqual([
      root[1].id,
    ]);
    const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-getting-started' });
    const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-runbooks' });
    const inB = b.siteSpaces[0].id;
    const wrong = await call('PATCH', site.path, { defaultSiteSpace: inB });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain('body.defaultSiteSpace');
    expect((await call('PATCH', site.path, { defaultSiteSection: 'sec-nope' })).status).toBe(400);
    const moved = await call('PATCH', site.path, { defaultSiteSection: b.id, defaultSiteSpace: inB });
    expect(moved.status).toBe(200);
    const sections = (await call('GET', `${site.path}/sections`)).body.items;
    expect(sections.map((s: Json) => [s.id, s.default])).toEqual([
      [a.id, false],
      [b.id, true],
    ]);
    expect((await call('PATCH', site.path, { defaultSiteSpace: root[0].id })).status).toBe(400);
  });

  it('deletes (205) with its children; again or unknown ⇒ 204; unknown site ⇒ 404', async () => {
    const { call, sb } = await sandbox();
    const site = await newSite(call, { spaces: ['sp-api'] });
    await post(call, `${site.path}/sections`, { spaceId: 'sp-runbooks' });
    await post(call, `${site.path}/share-links`, { name: 'x' });
    expect((await call('DELETE', site.path)).status).toBe(205);
    expect((await call('GET', site.path)).status).toBe(404);
    expect((await call('GET', `${site.path}/sections`)).status).toBe(404);
    expect((await call('DELETE', site.path)).status).toBe(204);
    expect((await call('DELETE', `${SITES}/site-never`)).status).toBe(204);
    for (const t of ['siteSections', 'siteSpaces', 'siteShareLinks', 'siteSectionGroups'])
      expect(sb.store.table(t).size, t).toBe(0);
    for (const [m, p] of [
      ['GET', '/x'],
      ['PATCH', '/x'],
      ['GET', '/x/published'],
      ['GET', '/x/adaptive-schema'],
    ] as const) {
      const res = await call(m, `${SITES}${p}`, m === 'PATCH' ? {} : undefined);
      expect(res.status, `${m} ${p}`).toBe(404);
      expect(res.body.error.code).toBe(404);
    }
    expect((await call('GET', '/orgs/org-nope/sites')).status).toBe(404);
  });

  it('the published view has the site and its structure (root site spaces, then sections and groups)', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Docs', spaces: ['sp-api'] });
    const flat = (await call('GET', `${site.path}/published`)).body;
    expect(flat.object).toBe('published-content-site');
    expect(flat.site.id).toBe(site.id);
    expect(flat.structure.type).toBe('siteSpaces');
    expect(flat.structure.structure.map((s: Json) => s.space.id)).toEqual(['sp-api']);
    const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-runbooks', title: 'Ops' });
    const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-changelog' });
    const g = await post(call, `${site.path}/section-groups`, { title: 'More', sections: [b.id] });
    const nested = (await call('GET', `${site.path}/published`)).body.structure;
    expect(nested.type).toBe('sections');
    expect(nested.structure.map((x: Json) => [x.object, x.id])).toEqual([
      ['site-section', a.id],
      ['site-section-group', g.id],
    ]);
    expect(nested.structure[0].siteSpaces.map((s: Json) => s.space.id)).toEqual(['sp-runbooks', 'sp-api']);
    expect(nested.structure[1].sections.map((s: Json) => s.id)).toEqual([b.id]);
  });
});
