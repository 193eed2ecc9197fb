import { describe, expect, it } from 'vitest';
import { brokenFileLink, spaceLinks } from '../../packages/sandbox/src/space-links.js';
import { sandbox, type Json } from './helpers.js';

describe('GET /spaces/{id}/links (management-api.md; not in the official spec)', () => {
  it('lists a space\'s links by status, with stats over all of them, paginated', async () => {
    const { call, sb } = await sandbox();
    const all = await call('GET', '/spaces/sp-api/links');
    expect(all.status).toBe(200);
    expect(all.body.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 0 } });
    expect(all.body.items.map((l: Json) => l.status)).toEqual(['ok', 'broken']);
    const broken = await call('GET', '/spaces/sp-api/links?status=broken');
    expect(broken.body).toMatchObject({ count: 1, stats: { total: 2, broken: { total: 1 } } });
    expect(broken.body.items[0]).toEqual({
      status: 'broken',
      relation: 'reference',
      targetReference: expect.objectContaining({ kind: 'file', space: 'sp-api', versionContext: { type: 'revision', revision: 'rev-sp-api' } }),
      locationReferences: [{ kind: 'page', page: 'page-auth' }],
    });
    // Links put by a test, one of them in a change request; pages of one.
    spaceLinks(sb.store).put({ ...brokenFileLink('org-demo', 'sp-api', 3, 'page-x'), changeRequest: 'cr-1' });
    const page = await call('GET', '/spaces/sp-api/links?status=broken&limit=1');
    expect(page.body).toMatchObject({ count: 1, next: { page: expect.any(String) }, stats: { total: 3, broken: { total: 2, changeRequest: 1 } } });
    const next = await call('GET', `/spaces/sp-api/links?status=broken&limit=1&page=${page.body.next.page}`);
    expect(next.body.items[0].targetReference.file).toBe('file-missing-3');
    expect((await call('GET', '/spaces/sp-api/links?status=gone')).status).toBe(400);
    expect((await call('GET', '/spaces/sp-nope/links')).status).toBe(404);
    expect((await call('GET', '/spaces/sp-changelog/links')).body).toMatchObject({ count: 0, items: [], stats: { total: 0, broken: { total: 0, changeRequest: 0 } } });
  });
});
