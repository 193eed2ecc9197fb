/**
 * `GET /spaces/{id}/links` (management-api.md; not in the official spec): the links the space's content holds,
 * with `stats`. Tests add links with `putPageLink` (content-records.ts): links exist only in content.
 */
import { describe, expect, it } from 'vitest';
import {
  changeRequestHost,
  changeRequests,
  putPageLink,
  spaceHost,
} from '../../packages/sandbox/src/content-records.js';
import { sandbox, type Json } from './helpers.js';

describe('GET /spaces/{id}/links (management-api.md; not in the official spec)', () => {
  it("lists the links of a space's content by status, with stats over all of them, paginated", async () => {
    const { call, sb } = await sandbox();
    const all = await call('GET', '/spaces/sp-api/links');
    expect(all.status).toBe(200);
    expect(all.body.stats).toEqual({ total: 5, broken: { total: 1, changeRequest: 0 } });
    const broken = await call('GET', '/spaces/sp-api/links?status=broken');
    expect(broken.body).toMatchObject({ count: 1, stats: { total: 5, broken: { total: 1 } } });
    // The demo's one broken link: the "Limits" page, missing from the space (its open change request adds it).
    expect(broken.body.items[0]).toEqual({
      status: 'broken',
      relation: 'reference',
      targetReference: {
        kind: 'page',
        page: 'pg-api-limits',
        organization: 'org-demo',
        space: 'sp-api',
        versionContext: { type: 'revision', revision: 'rev-sp-api' },
      },
      locationReferences: [
        {
          kind: 'page',
          page: 'pg-api-auth',
          organization: 'org-demo',
          space: 'sp-api',
          versionContext: { type: 'revision', revision: 'rev-sp-api' },
        },
      ],
    });

    // Links a test adds: a missing file in the space (in a new page), one in the open change request.
    putPageLink(sb.store, spaceHost('sp-api'), 'page-x', { file: 'file-missing-3' });
    putPageLink(sb.store, changeRequestHost('cr-api-1'), 'pg-api-errors', { file: 'file-missing-4' });
    const page = await call('GET', '/spaces/sp-api/links?status=broken&limit=1');
    expect(page.body).toMatchObject({
      count: 1,
      next: { page: expect.any(String) },
      stats: { total: 6, broken: { total: 2, changeRequest: 1 } },
    });
    const next = await call('GET', `/spaces/sp-api/links?status=broken&limit=1&page=${page.body.next.page}`);
    expect(next.body.items[0]).toMatchObject({
      targetReference: { kind: 'file', file: 'file-missing-3' },
      locationReferences: [{ kind: 'page', page: 'page-x' }],
    });
    expect(
      (await call('GET', '/spaces/sp-api/content/page/page-x/links')).body.items.map((l: Json) => l.status),
    ).toEqual(['broken']);

    // Only open change requests count.
    changeRequests(sb.store).put({ ...changeRequests(sb.store).get('cr-api-1')!, status: 'merged' });
    expect((await call('GET', '/spaces/sp-api/links')).body.stats.broken).toEqual({ total: 2, changeRequest: 0 });

    expect((await call('GET', '/spaces/sp-api/links?status=gone')).status).toBe(400);
    expect((await call('GET', '/spaces/sp-nope/links')).status).toBe(404);
    expect((await call('GET', '/spaces/sp-changelog/links')).body).toMatchObject({
      count: 0,
      items: [],
      stats: { total: 0, broken: { total: 0, changeRequest: 0 } },
    });
  });

  it('putPageLink writes ok links too: a URL, a page and a file the content holds', async () => {
    const { call, sb } = await sandbox();
    putPageLink(sb.store, spaceHost('sp-changelog'), 'page-news', { url: 'https://example.test/' });
    putPageLink(sb.store, spaceHost('sp-changelog'), 'page-news', { page: 'page-news' });
    putPageLink(sb.store, spaceHost('sp-getting-started'), 'pg-gs-install', { file: 'file-gs-logo' });
    expect((await call('GET', '/spaces/sp-changelog/links')).body).toMatchObject({
      count: 2,
      stats: { total: 2, broken: { total: 0 } },
    });
    expect((await call('GET', '/spaces/sp-changelog/links')).body.items[0].targetReference).toEqual({
      kind: 'url',
      url: 'https://example.test/',
    });
    expect(
      (await call('GET', '/spaces/sp-getting-started/content/files/file-gs-logo/backlinks')).body.items.map(
        (r: Json) => r.page,
      ),
    ).toEqual(['pg-gs-install', 'pg-gs-install']);
  });
});
