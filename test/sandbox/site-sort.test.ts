/**
 * sortSiteStructure (`PATCH …/structure/sort`) and getSiteStructure: reorders among siblings at every level
 * (the top level's sections and groups together, a group's sections, a section's site spaces, root site spaces),
 * `position: {}` puts an item last, and everything that is not a sibling reorder is refused without a change:
 * bad bodies (400), unknown items (404), unknown references, references of another container or another type,
 * the item itself (400).
 */
import { describe, expect, it } from 'vitest';
import { sandbox, type Client, type Json } from './helpers.js';
import { ids, listAll, newSite, post } from './site-fixture.js';

type Call = Client['call'];

interface Fixture {
  path: string;
  /** Top level: A, group G (holding B, C), D. */
  a: Json;
  b: Json;
  c: Json;
  d: Json;
  g: Json;
  /** Site spaces of A: the section's first, then two more. */
  a1: string;
  a2: string;
  a3: string;
}

async function fixture(call: Call): Promise<Fixture> {
  const site = await newSite(call, { title: 'Docs' });
  const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-getting-started', title: 'Guides' });
  const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-api', title: 'Reference' });
  const c = await post(call, `${site.path}/sections`, { spaceId: 'sp-runbooks', title: 'Runbooks' });
  const g = await post(call, `${site.path}/section-groups`, { title: 'G', sections: [b.id, c.id] });
  const d = await post(call, `${site.path}/sections`, { spaceId: 'sp-changelog', title: 'Changes' });
  const a2 = await post(call, `${site.path}/site-spaces`, { spaceId: 'sp-api', sectionId: a.id });
  const a3 = await post(call, `${site.path}/site-spaces`, { spaceId: 'sp-runbooks', sectionId: a.id });
  return { path: site.path, a, b, c, d, g, a1: a.siteSpaces[0].id, a2: a2.id, a3: a3.id };
}

const sort = (call: Call, site: string, body: Json) => call('PATCH', `${site}/structure/sort`, body);
const ptr = (type: string, id: string) => ({ type, id });

/** The top level as `id` (sections) / `id[children]` (groups), and every section's site spaces. */
async function layout(call: Call, site: string): Promise<{ top: string[]; spaces: Record<string, string[]> }> {
  const res = await call('GET', `${site}/structure`);
  expect(res.status).toBe(200);
  expect(res.body.type).toBe('sections');
  const top = res.body.structure.map((x: Json) =>
    x.object === 'site-section-group' ? `${x.id}[${ids(x.children).join(',')}]` : x.id,
  );
  const spaces: Record<string, string[]> = {};
  for (const s of await listAll(call, `${site}/sections`)) spaces[s.id] = ids(s.siteSpaces);
  return { top, spaces };
}

describe('PATCH …/structure/sort', () => {
  it('reorders the top level (a section next to a group, a group next to a section), a group’s sections and a section’s site spaces', async () => {
    const { call } = await sandbox();
    const f = await fixture(call);
    expect((await layout(call, f.path)).top).toEqual([f.a.id, `${f.g.id}[${f.b.id},${f.c.id}]`, f.d.id]);

    const moved = await sort(call, f.path, {
      item: ptr('site-section', f.d.id),
      position: { before: ptr('site-section-group', f.g.id) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ object: 'site-section', id: f.d.id });
    expect(
      (
        await sort(call, f.path, {
          item: ptr('site-section-group', f.g.id),
          position: { before: ptr('site-section', f.a.id) },
        })
      ).body,
    ).toMatchObject({ object: 'site-section-group', id: f.g.id });
    const inGroup = await sort(call, f.path, {
      item: ptr('site-section', f.b.id),
      position: { after: ptr('site-section', f.c.id) },
    });
    expect(inGroup.body).toMatchObject({ id: f.b.id, sectionGroup: f.g.id });
    expect(
      (await sort(call, f.path, { item: ptr('site-space', f.a3), position: { before: ptr('site-space', f.a1) } })).body,
    ).toMatchObject({ object: 'site-space', id: f.a3, section: f.a.id });
    const now = await layout(call, f.path);
    expect(now.top).toEqual([`${f.g.id}[${f.c.id},${f.b.id}]`, f.a.id, f.d.id]);
    expect(now.spaces[f.a.id]).toEqual([f.a3, f.a1, f.a2]);
    // Sections list in the new navigation order; the default site space stays the default.
    expect(ids(await listAll(call, `${f.path}/sections`))).toEqual([f.c.id, f.b.id, f.a.id, f.d.id]);
    expect((await listAll(call, `${f.path}/site-spaces?default=true`)).map((x) => x.id)).toContain(f.a1);
  });

  it('position {} puts the item last among its siblings', async () => {
    const { call } = await sandbox();
    const f = await fixture(call);
    expect((await sort(call, f.path, { item: ptr('site-section', f.a.id), position: {} })).status).toBe(200);
    expect((await sort(call, f.path, { item: ptr('site-section', f.b.id), position: {} })).status).toBe(200);
    expect((await sort(call, f.path, { item: ptr('site-space', f.a1), position: {} })).status).toBe(200);
    const now = await layout(call, f.path);
    expect(now.top).toEqual([`${f.g.id}[${f.c.id},${f.b.id}]`, f.d.id, f.a.id]);
    expect(now.spaces[f.a.id]).toEqual([f.a2, f.a3, f.a1]);
  });

  it('root site spaces of a site without sections reorder among themselves; the structure lists them', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Flat', spaces: ['sp-api', 'sp-runbooks', 'sp-changelog'] });
    const [x, y, z] = ids(await listAll(call, `${site.path}/site-spaces`));
    expect(
      (await sort(call, site.path, { item: ptr('site-space', z!), position: { before: ptr('site-space', x!) } }))
        .status,
    ).toBe(200);
    const res = await call('GET', `${site.path}/structure`);
    expect(res.body.type).toBe('siteSpaces');
    expect(ids(res.body.structure)).toEqual([z, x, y]);
    expect(ids(await listAll(call, `${site.path}/site-spaces`))).toEqual([z, x, y]);
  });

  it('refuses what is not a sibling reorder, changing nothing: 404 for an unknown item, 400 for a bad position or body', async () => {
    const { call } = await sandbox();
    const f = await fixture(call);
    const other = await newSite(call, { title: 'Other', spaces: ['sp-api'] });
    const otherSpace = ids(await listAll(call, `${other.path}/site-spaces`))[0]!;
    const b2 = await post(call, `${f.path}/site-spaces`, { spaceId: 'sp-changelog', sectionId: f.b.id });
    const before = await layout(call, f.path);
    const cases: [string, Json, number, string][] = [
      ['no body', undefined, 400, 'body'],
      ['no position', { item: ptr('site-section', f.a.id) }, 400, 'body.position: is required'],
      ['no item', { position: {} }, 400, 'body.item: is required'],
      [
        'both before and after',
        {
          item: ptr('site-section', f.a.id),
          position: { before: ptr('site-section', f.d.id), after: ptr('site-section', f.d.id) },
        },
        400,
        'at most one of before, after',
      ],
      ['unknown type', { item: { type: 'site-page', id: f.a.id }, position: {} }, 400, 'body.item.type'],
      ['empty id', { item: ptr('site-section', ''), position: {} }, 400, 'body.item.id'],
      [
        'unknown field',
        { item: ptr('site-section', f.a.id), position: {}, parent: null },
        400,
        'body.parent: unknown field',
      ],
      [
        'old pointer shape',
        { item: ptr('site-section', f.a.id), position: { after: { type: 'site-section', siteSection: f.d.id } } },
        400,
        'body.position.after',
      ],
      ['unknown item', { item: ptr('site-section', 'sec-nope'), position: {} }, 404, 'sec-nope'],
      ['item of another site', { item: ptr('site-space', otherSpace), position: {} }, 404, otherSpace],
      ['item type mismatch', { item: ptr('site-section-group', f.a.id), position: {} }, 404, f.a.id],
      ['external link (none exist)', { item: ptr('site-external-link', 'el-1'), position: {} }, 404, 'el-1'],
      [
        'relative to itself',
        { item: ptr('site-section', f.a.id), position: { after: ptr('site-section', f.a.id) } },
        400,
        'itself',
      ],
      [
        'unknown reference',
        { item: ptr('site-section', f.a.id), position: { after: ptr('site-section', 'sec-nope') } },
        400,
        'sec-nope',
      ],
      [
        'reference type mismatch',
        { item: ptr('site-section', f.a.id), position: { after: ptr('site-section', f.g.id) } },
        400,
        'is a site-section-group',
      ],
      [
        'top-level section next to a grouped one',
        { item: ptr('site-section', f.a.id), position: { after: ptr('site-section', f.b.id) } },
        400,
        'not among the top level',
      ],
      [
        'grouped section next to a top-level one',
        { item: ptr('site-section', f.b.id), position: { after: ptr('site-section', f.d.id) } },
        400,
        'not among the sections of section group',
      ],
      [
        'group next to a grouped section',
        { item: ptr('site-section-group', f.g.id), position: { after: ptr('site-section', f.c.id) } },
        400,
        'not among the top level',
      ],
      [
        'site space of another section',
        { item: ptr('site-space', f.a2), position: { after: ptr('site-space', b2.id) } },
        400,
        'not among the site spaces of section',
      ],
      [
        'site space next to a section',
        { item: ptr('site-space', f.a2), position: { after: ptr('site-section', f.a.id) } },
        400,
        'not among the site spaces',
      ],
    ];
    for (const [name, body, status, message] of cases) {
      const res = await sort(call, f.path, body);
      expect(res.status, name).toBe(status);
      expect(res.body.error.message, name).toContain(message);
    }
    expect(await layout(call, f.path)).toEqual(before);
    expect(
      (
        await call('PATCH', '/orgs/org-demo/sites/site-nope/structure/sort', {
          item: ptr('site-section', f.a.id),
          position: {},
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', '/orgs/org-demo/sites/site-nope/structure')).status).toBe(404);
  });
});
