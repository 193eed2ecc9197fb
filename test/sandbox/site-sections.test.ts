import { describe, expect, it } from 'vitest';
import { sandbox, type Json } from './helpers.js';
import { ids, listAll, newSite, post, siteWithTwoSections, spaceLayout } from './site-fixture.js';

describe('site sections', () => {
  it('creates (201 + Location) with one site space; the first section is the default and takes in root site spaces', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { spaces: ['sp-api', 'sp-changelog'] });
    const res = await call('POST', `${site.path}/sections`, {
      spaceId: 'sp-getting-started',
      title: 'Guides',
      icon: 'book',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toContain(`/sections/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'site-section',
      title: 'Guides',
      path: 'guides',
      default: true,
      icon: 'book',
    });
    expect(res.body.siteSpaces[0]).toMatchObject({
      space: { id: 'sp-getting-started' },
      default: true,
      section: res.body.id,
    });
    expect(res.body.siteSpaces.map((s: Json) => s.space.id)).toEqual(['sp-getting-started', 'sp-api', 'sp-changelog']);
    expect(await spaceLayout(call, site.path)).toEqual([
      `${res.body.id}:getting-started*`,
      `${res.body.id}:api-reference`,
      `${res.body.id}:changelog`,
    ]);
    const second = await post(call, `${site.path}/sections`, { spaceId: 'sp-runbooks' });
    expect(second).toMatchObject({ title: 'Runbooks', path: 'runbooks', default: false });
    expect(second.siteSpaces).toHaveLength(1);
  });

  it('makes section paths unique within the site (-2, -3) and a root space path unique inside the first section', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { spaces: ['sp-api'] });
    const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-api', title: 'Guides' });
    const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-runbooks', title: 'Guides' });
    const c = await post(call, `${site.path}/sections`, { spaceId: 'sp-changelog', title: 'guides!' });
    expect([a.path, b.path, c.path]).toEqual(['guides', 'guides-2', 'guides-3']);
    expect(a.siteSpaces.map((s: Json) => s.path)).toEqual(['api-reference', 'api-reference-2']);
  });

  it('lists sections in navigation order with sectionGroup and default; paginates', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const c = await post(call, `${path}/sections`, { spaceId: 'sp-runbooks' });
    const g = await post(call, `${path}/section-groups`, { title: 'G', sections: [a.id] });
    const list = await listAll(call, `${path}/sections`);
    expect(list.map((s: Json) => [s.id, s.sectionGroup, s.default])).toEqual([
      [b.id, undefined, false],
      [c.id, undefined, false],
      [a.id, g.id, true],
    ]);
    const page1 = await call('GET', `${path}/sections?limit=2`);
    expect(ids(page1.body.items)).toEqual([b.id, c.id]);
    expect(ids((await call('GET', `${path}/sections?limit=2&page=${page1.body.next.page}`)).body.items)).toEqual([
      a.id,
    ]);
  });

  it('rejects bad create bodies', async () => {
    const { call } = await sandbox();
    const site = await newSite(call);
    const bad: [Json, string][] = [
      [{}, 'body.spaceId: is required'],
      [{ spaceId: 'sp-nope' }, 'body.spaceId'],
      [{ spaceId: 'sp-api', title: 'x' }, 'body.title'],
      [{ spaceId: 'sp-api', title: 'x'.repeat(129) }, 'body.title'],
      [{ spaceId: 'sp-api', icon: 'i'.repeat(51) }, 'body.icon'],
      [{ spaceId: 'sp-api', draft: 'yes' }, 'body.draft'],
      [{ spaceId: 'sp-api', color: 'red' }, 'unknown field'],
      [{ spaceId: 'sp-api', template: { id: 't' } }, 'body.template'],
      [{ spaceId: 'sp-api', siteSectionGroupId: 'grp-nope' }, 'body.siteSectionGroupId'],
    ];
    for (const [body, message] of bad) {
      const res = await call('POST', `${site.path}/sections`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    expect(
      (await call('POST', `${site.path}/sections`, { spaceId: 'sp-api', title: null, icon: 'i'.repeat(50) })).status,
    ).toBe(201);
  });

  it('patches fields at their limits; condition/icon/description null removes; path unique in the site', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const url = `${path}/sections/${b.id}`;
    const res = await call('PATCH', url, {
      title: 'x'.repeat(128),
      path: 'p'.repeat(100),
      condition: 'c'.repeat(1024),
      icon: 'i'.repeat(50),
      description: 'd'.repeat(256),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      path: 'p'.repeat(100),
      condition: 'c'.repeat(1024),
      description: 'd'.repeat(256),
    });
    const cleared = await call('PATCH', url, { condition: null, icon: null, description: null });
    expect(cleared.body.condition).toBeUndefined();
    expect(cleared.body.icon).toBeUndefined();
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.title).toBe('x'.repeat(128));
    const bad: [Json, string][] = [
      [{ title: 'x' }, 'body.title'],
      [{ path: '' }, 'body.path'],
      [{ path: 'p'.repeat(101) }, 'body.path'],
      [{ condition: '' }, 'body.condition'],
      [{ condition: 'c'.repeat(1025) }, 'body.condition'],
      [{ icon: 'i'.repeat(51) }, 'body.icon'],
      [{ description: 'd'.repeat(257) }, 'body.description'],
      [{ path: a.path }, 'already used'],
      [{ defaultSiteSpace: a.siteSpaces[0].id }, 'body.defaultSiteSpace'],
    ];
    for (const [body, message] of bad) {
      const r = await call('PATCH', url, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    expect((await call('PATCH', `${path}/sections/sec-nope`, { title: 'ok' })).status).toBe(404);
  });

  it('sets the section default site space', async () => {
    const { call } = await sandbox();
    const { path, b } = await siteWithTwoSections(call);
    const extra = await post(call, `${path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: b.id });
    const res = await call('PATCH', `${path}/sections/${b.id}`, { defaultSiteSpace: extra.id });
    expect(res.body.siteSpaces.map((s: Json) => s.default)).toEqual([false, true]);
  });

  it('deletes (205) with its site spaces; the default section ⇒ 400; absent ⇒ 204', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const refused = await call('DELETE', `${path}/sections/${a.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('cannot delete the default section');
    expect((await call('DELETE', `${path}/sections/${b.id}`)).status).toBe(205);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([a.id]);
    expect(await spaceLayout(call, path)).toEqual([`${a.id}:getting-started*`]);
    expect((await call('DELETE', `${path}/sections/${b.id}`)).status).toBe(204);
    expect((await call('GET', `${path}/site-spaces`)).body.count).toBe(1);
  });

  it('moves among top-level items, or inside a group; across containers ⇒ 400', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const c = await post(call, `${path}/sections`, { spaceId: 'sp-runbooks' });
    const move = (id: string, position: Json) => call('POST', `${path}/sections/${id}/move`, { position });
    const res = await move(c.id, { before: { type: 'site-section', siteSection: a.id } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(c.id);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([c.id, a.id, b.id]);
    expect((await move(c.id, { after: { type: 'site-section', siteSection: b.id } })).status).toBe(200);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([a.id, b.id, c.id]);
    const g = await post(call, `${path}/section-groups`, { title: 'G', sections: [a.id, b.id] });
    expect((await move(a.id, { after: { type: 'site-section', siteSection: b.id } })).body.sectionGroup).toBe(g.id);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([c.id, b.id, a.id]); // the group went to the end
    const across = await move(c.id, { before: { type: 'site-section', siteSection: a.id } });
    expect(across.status).toBe(400);
    expect(across.body.error.message).toContain('different container');
    for (const position of [
      { before: { type: 'site-section', siteSection: a.id }, after: { type: 'site-section', siteSection: b.id } },
    ]) {
      expect((await move(a.id, position)).status).toBe(400);
    }
    expect((await move(a.id, { before: { type: 'site-space', siteSection: b.id } })).status).toBe(400);
    expect((await move(a.id, { before: { type: 'site-section', siteSection: a.id } })).status).toBe(400);
    expect((await move(a.id, { before: { type: 'site-section', siteSection: 'sec-nope' } })).status).toBe(400);
    expect((await move('sec-nope', { before: { type: 'site-section', siteSection: a.id } })).status).toBe(404);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([c.id, b.id, a.id]);
  });
});

describe('site section groups', () => {
  it('creates (201 + Location) at the end of the top level, taking listed sections out of their places', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const c = await post(call, `${path}/sections`, { spaceId: 'sp-runbooks' });
    const res = await call('POST', `${path}/section-groups`, { title: 'G', icon: 'folder', sections: [c.id, a.id] });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toContain(`/section-groups/${res.body.id}`);
    expect(res.body).toMatchObject({ object: 'site-section-group', title: 'G', icon: 'folder' });
    expect(ids(res.body.sections)).toEqual([c.id, a.id]);
    const h = await post(call, `${path}/section-groups`, { title: 'H', sections: [a.id] });
    expect(ids(h.sections)).toEqual([a.id]);
    const groups = await listAll(call, `${path}/section-groups`);
    expect(groups.map((g: Json) => [g.id, ids(g.sections)])).toEqual([
      [res.body.id, [c.id]],
      [h.id, [a.id]],
    ]);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([b.id, c.id, a.id]);
  });

  it('checks limits and references', async () => {
    const { call } = await sandbox();
    const { path, a } = await siteWithTwoSections(call);
    for (const body of [{ title: 'x' }, { title: 'x'.repeat(100), icon: 'i'.repeat(50) }]) {
      expect((await call('POST', `${path}/section-groups`, body)).status).toBe(201);
    }
    const bad: [Json, string][] = [
      [{}, 'body.title: is required'],
      [{ title: '' }, 'body.title'],
      [{ title: 'x'.repeat(101) }, 'body.title'],
      [{ title: 'x', icon: 'i'.repeat(51) }, 'body.icon'],
      [{ title: 'x', sections: [a.id, 'sec-nope'] }, 'body.sections[1]'],
      [{ title: 'x', sections: [a.id, a.id] }, 'body.sections[1]'],
    ];
    for (const [body, message] of bad) {
      const r = await call('POST', `${path}/section-groups`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    expect((await call('GET', `${path}/section-groups`)).body.count).toBe(2);
  });

  it('patches title and icon; null removes the icon', async () => {
    const { call } = await sandbox();
    const { path } = await siteWithTwoSections(call);
    const g = await post(call, `${path}/section-groups`, { title: 'G', icon: 'x' });
    const res = await call('PATCH', `${path}/section-groups/${g.id}`, { title: 'Renamed', icon: null });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Renamed');
    expect(res.body.icon).toBeUndefined();
    expect((await call('PATCH', `${path}/section-groups/${g.id}`, { title: '' })).status).toBe(400);
    expect((await call('PATCH', `${path}/section-groups/grp-nope`, { title: 'x' })).status).toBe(404);
  });

  it('adds a section (201, appended, out of another group) and removes one (205, right after the group; absent ⇒ 204)', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const c = await post(call, `${path}/sections`, { spaceId: 'sp-runbooks' });
    const g = await post(call, `${path}/section-groups`, { title: 'G', sections: [a.id] });
    const h = await post(call, `${path}/section-groups`, { title: 'H', sections: [b.id] });
    const added = await call('POST', `${path}/section-groups/${g.id}/sections`, { sectionId: b.id });
    expect(added.status).toBe(201);
    expect(ids(added.body.sections)).toEqual([a.id, b.id]);
    expect((await call('POST', `${path}/section-groups/${g.id}/sections`, { sectionId: c.id })).status).toBe(201);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([a.id, b.id, c.id]);
    expect(ids((await listAll(call, `${path}/section-groups`)).find((x: Json) => x.id === h.id).sections)).toEqual([]);
    expect((await call('DELETE', `${path}/section-groups/${g.id}/sections/${a.id}`)).status).toBe(205);
    const sections = await listAll(call, `${path}/sections`);
    expect(sections.map((s: Json) => [s.id, s.sectionGroup])).toEqual([
      [b.id, g.id],
      [c.id, g.id],
      [a.id, undefined],
    ]);
    expect((await call('DELETE', `${path}/section-groups/${g.id}/sections/${a.id}`)).status).toBe(204);
    expect((await call('POST', `${path}/section-groups/${g.id}/sections`, { sectionId: 'sec-nope' })).status).toBe(400);
    expect((await call('POST', `${path}/section-groups/grp-nope/sections`, { sectionId: a.id })).status).toBe(404);
  });

  it('deletes (205): its sections return to the top level in place; absent ⇒ 204', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const c = await post(call, `${path}/sections`, { spaceId: 'sp-runbooks' });
    const g = await post(call, `${path}/section-groups`, { title: 'G', sections: [c.id, a.id] });
    const top = await post(call, `${path}/sections`, { spaceId: 'sp-changelog' });
    expect(
      (
        await call('POST', `${path}/section-groups/${g.id}/move`, {
          position: { before: { type: 'site-section', id: b.id } },
        })
      ).status,
    ).toBe(200);
    expect((await call('DELETE', `${path}/section-groups/${g.id}`)).status).toBe(205);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([c.id, a.id, b.id, top.id]);
    expect((await call('DELETE', `${path}/section-groups/${g.id}`)).status).toBe(204);
    expect((await call('GET', `${path}/section-groups`)).body.count).toBe(0);
  });

  it('moves among top-level items by section or group id; a grouped section is no reference', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const g = await post(call, `${path}/section-groups`, { title: 'G' });
    const h = await post(call, `${path}/section-groups`, { title: 'H', sections: [b.id] });
    const move = (id: string, position: Json) => call('POST', `${path}/section-groups/${id}/move`, { position });
    expect((await move(h.id, { before: { type: 'site-section', id: a.id } })).status).toBe(200);
    expect((await move(g.id, { before: { type: 'site-section-group', id: h.id } })).status).toBe(200);
    expect(ids(await listAll(call, `${path}/section-groups`))).toEqual([g.id, h.id]);
    expect(ids(await listAll(call, `${path}/sections`))).toEqual([b.id, a.id]);
    expect((await move(g.id, { after: { type: 'site-section', id: b.id } })).status).toBe(400);
    expect((await move(g.id, { after: { type: 'site-section-group', id: a.id } })).status).toBe(400);
    expect((await move(g.id, { after: { type: 'site-section-group', id: g.id } })).status).toBe(400);
    // No reference (the official spec's optional position): to the end of the top level.
    expect((await move(g.id, {})).status).toBe(200);
    expect(ids(await listAll(call, `${path}/section-groups`))).toEqual([h.id, g.id]);
  });
});
