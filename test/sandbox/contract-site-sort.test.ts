/**
 * CONTRACT CHECK for sortSiteStructure and getSiteStructure against the official spec: the sort bodies (every
 * pointer type docops sends, and `position: {}`) are valid requests the sandbox accepts, its 200 answers are valid
 * SiteStructureItems, its 400 and 404 bodies the spec's BadRequestError / NotFoundError, and the structure of a
 * site with sections and of one without validate as SiteStructure. Bodies the spec refuses, the sandbox refuses.
 */
import { describe, expect, it } from 'vitest';
import { requestValidator, responseValidator } from './contract-spec.js';
import { sandbox, type Json } from './helpers.js';
import { ids, listAll, newSite, post } from './site-fixture.js';

const S = '/orgs/{organizationId}/sites/{siteId}';
const SORT = `${S}/structure/sort`;

function expectValid(validate: ReturnType<typeof responseValidator>, body: unknown): void {
  const valid = validate(body);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

describe('contract: PATCH …/structure/sort and GET …/structure', () => {
  it('sort bodies of every pointer type are valid requests; the answers are valid SiteStructureItems; the structure validates', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Docs' });
    const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-getting-started', title: 'Guides' });
    const b = await post(call, `${site.path}/sections`, { spaceId: 'sp-api', title: 'Reference' });
    const c = await post(call, `${site.path}/sections`, { spaceId: 'sp-runbooks', title: 'Runbooks' });
    const g = await post(call, `${site.path}/section-groups`, { title: 'G', sections: [b.id, c.id] });
    const a2 = await post(call, `${site.path}/site-spaces`, { spaceId: 'sp-changelog', sectionId: a.id });
    const bodies: Json[] = [
      { item: { type: 'site-section-group', id: g.id }, position: { before: { type: 'site-section', id: a.id } } },
      { item: { type: 'site-section', id: a.id }, position: { before: { type: 'site-section-group', id: g.id } } },
      { item: { type: 'site-section', id: c.id }, position: { before: { type: 'site-section', id: b.id } } },
      { item: { type: 'site-space', id: a2.id }, position: { before: { type: 'site-space', id: a.siteSpaces[0].id } } },
      { item: { type: 'site-space', id: a2.id }, position: {} },
    ];
    const request = requestValidator('PATCH', SORT);
    const answer = responseValidator('PATCH', SORT, 200);
    for (const body of bodies) {
      expectValid(request, body);
      const res = await call('PATCH', `${site.path}/structure/sort`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectValid(answer, res.body);
    }
    expectValid(responseValidator('GET', `${S}/structure`, 200), (await call('GET', `${site.path}/structure`)).body);
    const flat = await newSite(call, { title: 'Flat', spaces: ['sp-api', 'sp-runbooks'] });
    const [x, y] = ids(await listAll(call, `${flat.path}/site-spaces`));
    expect(
      (
        await call('PATCH', `${flat.path}/structure/sort`, {
          item: { type: 'site-space', id: y },
          position: { before: { type: 'site-space', id: x } },
        })
      ).status,
    ).toBe(200);
    expectValid(responseValidator('GET', `${S}/structure`, 200), (await call('GET', `${flat.path}/structure`)).body);
  });

  it('bodies the spec refuses are refused (400 BadRequestError); an unknown item answers the spec NotFoundError', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Docs' });
    const a = await post(call, `${site.path}/sections`, { spaceId: 'sp-getting-started', title: 'Guides' });
    const refused: Json[] = [
      {},
      { item: { type: 'site-section', id: a.id } },
      { position: {} },
      { item: { type: 'page', id: a.id }, position: {} },
      { item: { id: a.id }, position: {} },
    ];
    for (const body of refused) {
      expect(requestValidator('PATCH', SORT)(body), JSON.stringify(body)).toBe(false);
      const res = await call('PATCH', `${site.path}/structure/sort`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectValid(responseValidator('PATCH', SORT, 400), res.body);
    }
    const missing = await call('PATCH', `${site.path}/structure/sort`, {
      item: { type: 'site-section', id: 'sec-nope' },
      position: {},
    });
    expect(missing.status).toBe(404);
    expectValid(responseValidator('PATCH', SORT, 404), missing.body);
  });
});
