import { describe, expect, it } from 'vitest';
import { siteSections, siteSpaces } from '../../packages/sandbox/src/site-records.js';
import { manualClock, sandbox, type Json } from './helpers.js';
import { listAll, newSite, post, siteWithTwoSections, spaceLayout } from './site-fixture.js';

describe('site spaces', () => {
  it('adds (201 + Location) to the root of a site without sections; the first is the default; paths unique', async () => {
    const { call } = await sandbox();
    const site = await newSite(call);
    const res = await call('POST', `${site.path}/site-spaces`, { spaceId: 'sp-api' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toContain(`/site-spaces/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'site-space',
      path: 'api-reference',
      default: true,
      title: 'API Reference',
      space: { object: 'space', id: 'sp-api' },
    });
    expect(res.body.section).toBeUndefined();
    await post(call, `${site.path}/site-spaces`, { spaceId: 'sp-api' });
    expect(await spaceLayout(call, site.path)).toEqual(['root:api-reference*', 'root:api-reference-2']);
    expect((await call('GET', site.path)).body.siteSpaces).toBe(2);
  });

  it('adds to the default section without sectionId, else to the named section', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    await call('PATCH', path, { defaultSiteSection: b.id });
    expect((await post(call, `${path}/site-spaces`, { spaceId: 'sp-runbooks' })).section).toBe(b.id);
    expect((await post(call, `${path}/site-spaces`, { spaceId: 'sp-changelog', sectionId: a.id })).section).toBe(a.id);
    expect(await spaceLayout(call, path)).toEqual([
      `${a.id}:getting-started*`,
      `${a.id}:changelog`,
      `${b.id}:api-reference*`,
      `${b.id}:runbooks`,
    ]);
    const bad: [Json, string][] = [
      [{ spaceId: 'sp-api', sectionId: 'sec-nope' }, 'body.sectionId'],
      [{ spaceId: 'sp-nope' }, 'body.spaceId'],
      [{}, 'body.spaceId: is required'],
      [{ spaceId: 'sp-api', color: 'red' }, 'unknown field'],
      [{ spaceId: 'sp-api', title: 'x' }, 'body.title'],
      [{ spaceId: 'sp-api', template: { id: 't' } }, 'body.template'],
    ];
    for (const [body, message] of bad) {
      const r = await call('POST', `${path}/site-spaces`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
  });

  it('lists in navigation order (groups reorder it) and filters by default', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    await post(call, `${path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: a.id });
    await post(call, `${path}/section-groups`, { title: 'G', sections: [a.id] });
    expect(await spaceLayout(call, path)).toEqual([
      `${b.id}:api-reference*`,
      `${a.id}:getting-started*`,
      `${a.id}:runbooks`,
    ]);
    expect((await listAll(call, `${path}/site-spaces?default=true`)).map((s: Json) => s.path)).toEqual([
      'api-reference',
      'getting-started',
    ]);
    expect((await listAll(call, `${path}/site-spaces?default=false`)).map((s: Json) => s.path)).toEqual(['runbooks']);
    expect((await call('GET', `${path}/site-spaces?default=1`)).status).toBe(400);
  });

  it('patches path (1..100, unique within its section), condition (1..1024, null removes) and spaceId', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const extra = await post(call, `${path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: a.id });
    const url = `${path}/site-spaces/${extra.id}`;
    expect((await call('PATCH', url, { path: 'p' })).status).toBe(200);
    const res = await call('PATCH', url, {
      path: 'p'.repeat(100),
      condition: 'c'.repeat(1024),
      spaceId: 'sp-changelog',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      path: 'p'.repeat(100),
      condition: 'c'.repeat(1024),
      title: 'Changelog',
      space: { id: 'sp-changelog' },
    });
    expect((await call('PATCH', url, { condition: null })).body.condition).toBeUndefined();
    expect((await call('PATCH', url, { path: b.siteSpaces[0].path })).status).toBe(200); // other section: fine
    const bad: [Json, string][] = [
      [{ path: '' }, 'body.path'],
      [{ path: 'p'.repeat(101) }, 'body.path'],
      [{ path: 'getting-started' }, 'already used'],
      [{ condition: '' }, 'body.condition'],
      [{ condition: 'c'.repeat(1025) }, 'body.condition'],
      [{ spaceId: 'sp-nope' }, 'body.spaceId'],
      [{ hidden: 'yes' }, 'body.hidden'],
      [{ color: 'red' }, 'unknown field'],
    ];
    for (const [body, message] of bad) {
      const r = await call('PATCH', url, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    expect((await call('PATCH', `${path}/site-spaces/ss-nope`, { path: 'x' })).status).toBe(404);
  });

  it("deletes (205); a section's default ⇒ 400 (also when it is the only one); the root default only when alone; absent ⇒ 204", async () => {
    const { call } = await sandbox();
    const { path, a } = await siteWithTwoSections(call);
    const extra = await post(call, `${path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: a.id });
    const only = await call('DELETE', `${path}/site-spaces/${a.siteSpaces[0].id}`);
    expect(only.status).toBe(400);
    expect(only.body.error.message).toContain('default site space');
    expect((await call('DELETE', `${path}/site-spaces/${extra.id}`)).status).toBe(205);
    const last = await call('DELETE', `${path}/site-spaces/${a.siteSpaces[0].id}`);
    expect(last.status).toBe(400);
    expect(last.body.error.message).toContain('only site space');
    expect((await call('DELETE', `${path}/site-spaces/${extra.id}`)).status).toBe(204);

    const root = await newSite(call, { spaces: ['sp-api', 'sp-changelog'] });
    const [first, second] = await listAll(call, `${root.path}/site-spaces`);
    expect((await call('DELETE', `${root.path}/site-spaces/${first.id}`)).status).toBe(400);
    expect((await call('DELETE', `${root.path}/site-spaces/${second.id}`)).status).toBe(205);
    expect((await call('DELETE', `${root.path}/site-spaces/${first.id}`)).status).toBe(205);
    expect((await call('GET', root.path)).body.siteSpaces).toBe(0);
  });

  it('moves within a section, at the root, and into another section next to one of its site spaces', async () => {
    const { call } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const x = await post(call, `${path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: a.id });
    const y = await post(call, `${path}/site-spaces`, { spaceId: 'sp-api', sectionId: a.id });
    const move = (id: string, position: Json) => call('POST', `${path}/site-spaces/${id}/move`, { position });
    expect((await move(y.id, { before: { type: 'site-space', siteSpace: a.siteSpaces[0].id } })).status).toBe(200);
    expect(await spaceLayout(call, path)).toEqual([
      `${a.id}:api-reference`,
      `${a.id}:getting-started*`,
      `${a.id}:runbooks`,
      `${b.id}:api-reference*`,
    ]);
    const across = await move(y.id, { after: { type: 'site-space', siteSpace: b.siteSpaces[0].id } });
    expect(across.status).toBe(200);
    expect(across.body).toMatchObject({ section: b.id, path: 'api-reference-2', default: false });
    expect(await spaceLayout(call, path)).toEqual([
      `${a.id}:getting-started*`,
      `${a.id}:runbooks`,
      `${b.id}:api-reference*`,
      `${b.id}:api-reference-2`,
    ]);
    const def = await move(a.siteSpaces[0].id, { before: { type: 'site-space', siteSpace: y.id } });
    expect(def.status).toBe(400);
    expect(def.body.error.message).toContain('default site space');
    for (const position of [
      { before: { type: 'site-space', siteSpace: x.id } },
      { after: { type: 'site-space', siteSpace: 'ss-nope' } },
      { after: { type: 'site-section', siteSpace: y.id } },
    ]) {
      expect((await move(x.id, position)).status, JSON.stringify(position)).toBe(400);
    }
    expect((await move('ss-nope', { after: { type: 'site-space', siteSpace: x.id } })).status).toBe(404);

    const root = await newSite(call, { spaces: ['sp-api', 'sp-changelog'] });
    const [r1, r2] = await listAll(call, `${root.path}/site-spaces`);
    expect(
      (
        await call('POST', `${root.path}/site-spaces/${r2.id}/move`, {
          position: { before: { type: 'site-space', siteSpace: r1.id } },
        })
      ).status,
    ).toBe(200);
    expect(await spaceLayout(call, root.path)).toEqual(['root:changelog', 'root:api-reference*']);
  });

  it('paginates more than 1,000 site spaces in navigation order (store filled directly)', async () => {
    const { call, sb } = await sandbox();
    const { path, a, b } = await siteWithTwoSections(call);
    const section = siteSections(sb.store).get(a.id);
    if (!section) throw new Error('section missing');
    for (let i = 0; i < 1500; i++) {
      const id = `ss-fill-${i}`;
      siteSpaces(sb.store).put({ id, siteId: section.siteId, spaceId: 'sp-runbooks', path: `p-${i}`, section: a.id });
      section.siteSpaces.push(id);
    }
    const firstPage = await call('GET', `${path}/site-spaces`);
    expect(firstPage.body.count).toBe(50);
    const all = await listAll(call, `${path}/site-spaces`);
    expect(all).toHaveLength(1502);
    expect(all[1].path).toBe('p-0');
    expect(all[1500].path).toBe('p-1499');
    expect(all[1501].section).toBe(b.id);
    expect(new Set(all.map((s: Json) => s.id)).size).toBe(1502);
    expect((await call('GET', path)).body.siteSpaces).toBe(1502);
  });

  it('a purged space leaves the sites that showed it; an emptied default section hands over the default', async () => {
    const clock = manualClock();
    const { call } = await sandbox({ now: clock.now });
    const { path, a, b } = await siteWithTwoSections(call);
    const extra = await post(call, `${path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: b.id });
    expect((await call('DELETE', '/spaces/sp-getting-started')).status).toBe(205);
    expect((await call('DELETE', '/spaces/sp-api')).status).toBe(205);
    clock.advance(7 * 24 * 3600 * 1000 + 1);
    expect((await call('GET', '/spaces/sp-api')).status).toBe(404); // purged now
    const sections = await listAll(call, `${path}/sections`);
    expect(sections.map((s: Json) => s.id)).toEqual([b.id]);
    expect(sections[0].default).toBe(true);
    expect(sections[0].siteSpaces.map((s: Json) => s.id)).toEqual([extra.id]);
    expect(await spaceLayout(call, path)).toEqual([`${b.id}:runbooks*`]);
    expect(a.id).not.toBe(b.id);
  });
});
