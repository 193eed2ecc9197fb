/**
 * The operations the sandbox serves from management-api.md that the official spec lacks, so its client has no
 * method for them: driven over plain HTTP with the same token, one case per route (the coverage test checks that
 * every such route has one). Their answers are checked against management-api.md's shapes here, not the spec's.
 */
import { expect } from 'vitest';
import { changeRequestHost, spaceContent } from '../../../packages/sandbox/src/content-records.js';
import { request, type Json, type Res } from '../helpers.js';
import { siteWithTwoSections } from '../site-fixture.js';
import type { Env } from './harness.js';

export interface RawCase {
  /** `METHOD /spec/like/{path}`, as NOT_IN_SPEC names it. */
  route: string;
  run(env: Env): Promise<void>;
}

const call = (env: Env, method: string, path: string, body?: unknown): Promise<Res> =>
  request(env.sb, method, path, body);

/** A reference into the revision of a host of sp-api (management-api.md: kind, organization, space, versionContext). */
const ref = (kind: string, id: string, revision = 'rev-sp-api'): Json => ({
  kind,
  [kind]: id,
  organization: 'org-demo',
  space: 'sp-api',
  versionContext: { type: 'revision', revision },
});

const CR = '/spaces/sp-api/change-requests/cr-api-1';

export const RAW_CASES: RawCase[] = [
  {
    route: 'POST /spaces/{spaceId}/transfer',
    run: async (env) =>
      expect((await call(env, 'POST', '/spaces/sp-api/transfer', { organization: 'org-demo' })).status).toBe(409),
  },
  {
    route: 'POST /spaces/{spaceId}/content/import',
    run: async (env) => {
      const r = await call(env, 'POST', '/spaces/sp-changelog/content/import', {
        url: 'https://old.acme.test/changelog',
        source: 'website',
      });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ revision: expect.any(String), importedResources: 1, totalResources: 1 });
      const space = (await call(env, 'GET', '/spaces/sp-changelog')).body;
      expect(space.revision).toBe(r.body.revision);
      expect(
        (await call(env, 'GET', '/spaces/sp-changelog/content/pages')).body.pages.map((p: Json) => p.title),
      ).toEqual(['old.acme.test/changelog']);
      expect(
        (await call(env, 'POST', '/spaces/sp-changelog/content/import', { url: 'not a url', source: 'website' }))
          .status,
      ).toBe(400);
      expect((await call(env, 'POST', '/spaces/sp-changelog/content/import', { url: 'https://x.test' })).status).toBe(
        400,
      );
    },
  },
  {
    route: 'POST /spaces/{spaceId}/change-requests/{changeRequestId}/content/import',
    run: async (env) => {
      const r = await call(env, 'POST', `${CR}/content/import`, { url: 'https://wiki.acme.test/', source: 'website' });
      expect(r.status).toBe(201);
      expect((await call(env, 'GET', `${CR}/content`)).body).toMatchObject({
        id: r.body.revision,
        parents: ['rev-cr-api-1'],
      });
      expect((await call(env, 'GET', '/spaces/sp-api')).body.revision).toBe('rev-sp-api'); // the space's own content is untouched
    },
  },
  {
    route: 'GET /spaces/{spaceId}/content/page/{pageId}/links',
    run: async (env) => {
      const r = await call(env, 'GET', '/spaces/sp-api/content/page/pg-api-overview/links');
      expect(r.status).toBe(200);
      expect(r.body.items).toEqual([
        {
          status: 'ok',
          relation: 'reference',
          targetReference: ref('page', 'pg-api-auth'),
          locationReferences: [ref('page', 'pg-api-overview')],
        },
        {
          status: 'ok',
          relation: 'reference',
          targetReference: ref('file', 'file-api-diagram'),
          locationReferences: [ref('page', 'pg-api-overview')],
        },
        {
          status: 'ok',
          relation: 'reference',
          targetReference: { kind: 'url', url: 'https://status.acme.test' },
          locationReferences: [ref('page', 'pg-api-overview')],
        },
      ]);
      expect(
        (await call(env, 'GET', '/spaces/sp-api/content/page/pg-api-auth/links?status=broken')).body.items.map(
          (l: Json) => l.targetReference.page,
        ),
      ).toEqual(['pg-api-limits']);
      expect((await call(env, 'GET', '/spaces/sp-api/content/page/pg-api-auth/links?status=gone')).status).toBe(400);
      expect((await call(env, 'GET', '/spaces/sp-api/content/page/pg-nope/links')).status).toBe(404);
    },
  },
  {
    route: 'GET /spaces/{spaceId}/content/files/{fileId}/backlinks',
    run: async (env) => {
      const r = await call(env, 'GET', '/spaces/sp-api/content/files/file-api-diagram/backlinks?limit=10');
      expect(r.body).toEqual({ count: 1, items: [ref('page', 'pg-api-overview')] });
      expect((await call(env, 'GET', '/spaces/sp-api/content/files/file-api-spec/backlinks')).body.items).toEqual([]);
      expect((await call(env, 'GET', '/spaces/sp-api/content/files/file-nope/backlinks')).status).toBe(404);
    },
  },
  {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links',
    run: async (env) => {
      // In the change request the "Limits" page exists: the link that is broken in the space is fine here.
      const r = await call(env, 'GET', `${CR}/content/page/pg-api-auth/links`);
      expect(r.body.items.map((l: Json) => [l.status, l.targetReference.page])).toEqual([['ok', 'pg-api-limits']]);
      expect(r.body.items[0].targetReference.versionContext.revision).toBe('rev-cr-api-1');
    },
  },
  {
    route: 'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
    run: async (env) => {
      expect((await call(env, 'GET', `${CR}/content/files/file-api-diagram/backlinks`)).body.items).toEqual([
        ref('page', 'pg-api-overview', 'rev-cr-api-1'),
      ]);
      expect((await call(env, 'GET', `${CR}/content/files/file-nope/backlinks`)).status).toBe(404);
    },
  },
  {
    route: 'GET /spaces/{spaceId}/links',
    run: async (env) => {
      const all = await call(env, 'GET', '/spaces/sp-api/links');
      expect(all.body.stats).toEqual({ total: 5, broken: { total: 1, changeRequest: 0 } });
      expect(all.body.items.map((l: Json) => l.status)).toEqual(['ok', 'ok', 'ok', 'broken', 'in-app']);
      const broken = await call(env, 'GET', '/spaces/sp-api/links?status=broken&limit=1');
      expect(broken.body).toMatchObject({
        count: 1,
        stats: { total: 5 },
        items: [{ status: 'broken', targetReference: { kind: 'page', page: 'pg-api-limits' } }],
      });
      // A link an open change request breaks counts in stats.broken.changeRequest: here the change request loses the diagram.
      const cr = spaceContent(env.sb.store).get(changeRequestHost('cr-api-1'));
      if (cr) spaceContent(env.sb.store).put({ ...cr, files: [] });
      expect((await call(env, 'GET', '/spaces/sp-api/links')).body.stats).toEqual({
        total: 5,
        broken: { total: 1, changeRequest: 1 },
      });
      expect((await call(env, 'GET', '/spaces/sp-nope/links')).status).toBe(404);
    },
  },
  {
    route: 'POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections',
    run: async (env) => {
      const { path, a, b } = await siteWithTwoSections((m, p, body) => call(env, m, p, body));
      const g = (await call(env, 'POST', `${path}/section-groups`, { title: 'Guides', sections: [a.id] })).body;
      const added = await call(env, 'POST', `${path}/section-groups/${g.id}/sections`, { sectionId: b.id });
      expect(added.status).toBe(201);
      expect(added.body.sections.map((s: Json) => s.id)).toEqual([a.id, b.id]);
    },
  },
  {
    route: 'DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}',
    run: async (env) => {
      const { path, a, b } = await siteWithTwoSections((m, p, body) => call(env, m, p, body));
      const g = (await call(env, 'POST', `${path}/section-groups`, { title: 'Guides', sections: [a.id, b.id] })).body;
      expect((await call(env, 'DELETE', `${path}/section-groups/${g.id}/sections/${a.id}`)).status).toBe(205);
      expect((await call(env, 'GET', `${path}/section-groups`)).body.items[0].sections.map((s: Json) => s.id)).toEqual([
        b.id,
      ]);
    },
  },
];
