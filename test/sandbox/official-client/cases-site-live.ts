/** Redirects, publishing and the publishing-auth settings of a site (issue 29). */
import { expect } from 'vitest';
import { orgs } from '../../../packages/sandbox/src/records.js';
import { ORG, expectStatus, statusOf, type Env } from './harness.js';
import type { Case } from './cases.js';
import { newSite, sectionedSite } from './site-fixture.js';

const EXTERNAL = { kind: 'external' as const, url: 'https://acme.test/new' };

const live = async ({ api }: Env, site: string, query: Record<string, unknown> = {}) =>
  (await expectStatus(api.orgs.listSiteRedirects(ORG, site, query), 200)).items;

export const SITE_LIVE_CASES: Case[] = [
  {
    name: 'createSiteRedirect: permanent, captureWildcard, draft, site-section destination',
    run: async (env) => {
      const { site, runbooks } = await sectionedSite(env);
      const made = await expectStatus(
        env.api.orgs.createSiteRedirect(ORG, site.id, {
          source: '/old/*',
          destination: { kind: 'site-section', siteSectionId: runbooks.id },
          permanent: true,
          captureWildcard: true,
        }),
        201,
      );
      expect(made).toMatchObject({
        object: 'site-redirect',
        source: '/old/*',
        draft: false,
        permanent: true,
        captureWildcard: true,
      });
      const draft = await expectStatus(
        env.api.orgs.createSiteRedirect(ORG, site.id, { source: '/old/*', destination: EXTERNAL, draft: true }),
        201,
      );
      expect(draft).toMatchObject({ draft: true, permanent: false, captureWildcard: false, destination: EXTERNAL });
      // One live and one draft rule per source; a second live one is refused.
      expect(
        await statusOf(env.api.orgs.createSiteRedirect(ORG, site.id, { source: '/old/*', destination: EXTERNAL })),
      ).toBe(409);
      expect(
        await statusOf(
          env.api.orgs.createSiteRedirect(ORG, site.id, {
            source: '/x',
            destination: { kind: 'site-section', siteSectionId: 'nope' },
          }),
        ),
      ).toBe(400);
      expect((await live(env, site.id)).map((r) => r.id)).toEqual([made.id]);
      expect((await live(env, site.id, { draft: true })).map((r) => r.id)).toEqual([draft.id]);
    },
  },
  {
    name: 'bulkUpsertSiteRedirects: create, update, delete, publish, a failed item among good ones',
    run: async (env) => {
      const { site, root } = await newSite(env);
      const first = await expectStatus(
        env.api.orgs.bulkUpsertSiteRedirects(ORG, site.id, {
          redirects: [
            { source: '/a', destination: EXTERNAL, permanent: true },
            { source: '/b', destination: { kind: 'site-space', siteSpaceId: root.id } },
            {
              source: '/c',
              intent: 'draft',
              destination: { kind: 'site-page', siteSpaceId: root.id, pageId: 'page-home' },
            },
            { source: '/d', destination: { kind: 'site-space', siteSpaceId: 'gone' } },
          ],
        }),
        200,
      );
      expect(first.results.map((r) => r.status)).toEqual(['created', 'created', 'created', 'error']);
      expect(first.results[3]).toMatchObject({ source: '/d', draft: false, error: expect.stringContaining('gone') });
      const second = await expectStatus(
        env.api.orgs.bulkUpsertSiteRedirects(ORG, site.id, {
          redirects: [
            { source: '/a', destination: { kind: 'external', url: 'https://acme.test/newer' } },
            { source: '/b', destination: null },
            { source: '/c', intent: 'publish' },
          ],
        }),
        200,
      );
      expect(second.results.map((r) => r.status)).toEqual(['updated', 'deleted', 'published']);
      const rules = await live(env, site.id, { orderBy: 'source' });
      expect(rules.map((r) => [r.source, r.permanent])).toEqual([
        ['/a', true],
        ['/c', false],
      ]);
      expect(rules[0]!.destination).toEqual({ kind: 'external', url: 'https://acme.test/newer' });
      expect(await live(env, site.id, { draft: true })).toEqual([]);
    },
  },
  {
    name: 'listSiteRedirects: search, orderBy, limit',
    run: async (env) => {
      const { site } = await newSite(env);
      for (const source of ['/guides/b', '/guides/a', '/api/c'])
        await expectStatus(env.api.orgs.createSiteRedirect(ORG, site.id, { source, destination: EXTERNAL }), 201);
      expect((await live(env, site.id, { search: 'guides', orderBy: 'source' })).map((r) => r.source)).toEqual([
        '/guides/a',
        '/guides/b',
      ]);
      expect((await live(env, site.id, { orderBy: 'createdAt', limit: 1 })).map((r) => r.source)).toEqual(['/api/c']);
    },
  },
  {
    name: 'updateSiteRedirectById: source, destination, permanent, draft',
    run: async (env) => {
      const { site, root } = await newSite(env);
      const made = await expectStatus(
        env.api.orgs.createSiteRedirect(ORG, site.id, { source: '/a', destination: EXTERNAL }),
        201,
      );
      const next = await expectStatus(
        env.api.orgs.updateSiteRedirectById(ORG, site.id, made.id, {
          source: '/b',
          destination: { kind: 'site-space', siteSpaceId: root.id },
          permanent: true,
          draft: true,
        }),
        200,
      );
      expect(next).toMatchObject({
        id: made.id,
        source: '/b',
        permanent: true,
        draft: true,
        destination: { kind: 'site-space', siteSpaceId: root.id },
      });
      expect(next.updatedAt).toEqual(expect.any(String));
      expect((await live(env, site.id, { draft: true })).map((r) => r.source)).toEqual(['/b']);
    },
  },
  {
    name: 'deleteSiteRedirectById',
    run: async (env) => {
      const { site } = await newSite(env);
      const made = await expectStatus(
        env.api.orgs.createSiteRedirect(ORG, site.id, { source: '/a', destination: EXTERNAL }),
        201,
      );
      expect(await statusOf(env.api.orgs.deleteSiteRedirectById(ORG, site.id, made.id))).toBe(205);
      expect(await statusOf(env.api.orgs.deleteSiteRedirectById(ORG, site.id, made.id))).toBe(204);
      expect(await live(env, site.id)).toEqual([]);
    },
  },
  {
    name: 'getSiteRedirectBySource: exact and wildcard sources, captured suffix',
    run: async (env) => {
      const { site } = await newSite(env);
      await expectStatus(
        env.api.orgs.createSiteRedirect(ORG, site.id, {
          source: '/docs/*',
          destination: EXTERNAL,
          captureWildcard: true,
        }),
        201,
      );
      await expectStatus(
        env.api.orgs.createSiteRedirect(ORG, site.id, {
          source: '/docs/exact',
          destination: { kind: 'external', url: 'https://acme.test/exact' },
        }),
        201,
      );
      const hit = await expectStatus(env.api.orgs.getSiteRedirectBySource(ORG, site.id, { source: '/docs/a/b' }), 200);
      expect(hit.target).toBe('https://acme.test/new/a/b');
      expect(
        (await expectStatus(env.api.orgs.getSiteRedirectBySource(ORG, site.id, { source: '/docs/exact' }), 200)).target,
      ).toBe('https://acme.test/exact');
      expect(await statusOf(env.api.orgs.getSiteRedirectBySource(ORG, site.id, { source: '/other' }))).toBe(404);
    },
  },
  {
    name: 'publishSite: published, and a checkout session when the plan needs an upgrade',
    run: async (env) => {
      const { site } = await newSite(env);
      expect(await expectStatus(env.api.orgs.publishSite(ORG, site.id), 200)).toMatchObject({
        object: 'site',
        published: true,
      });
      expect((await expectStatus(env.api.orgs.getSiteById(ORG, site.id), 200)).published).toBe(true);
      await expectStatus(env.api.orgs.updateSiteById(ORG, site.id, { visibility: 'visitor-auth' }), 200);
      await expectStatus(env.api.orgs.unpublishSite(ORG, site.id), 200);
      // The demo organization is on Enterprise; on the free plan a visitor-auth site needs an upgrade.
      orgs(env.sb.store).put({ ...orgs(env.sb.store).get(ORG)!, plan: 'free_2024' });
      const answer = await expectStatus(env.api.orgs.publishSite(ORG, site.id), 200);
      expect(answer).toEqual({ type: 'checkout', sessionId: expect.any(String) });
      expect((await expectStatus(env.api.orgs.getSiteById(ORG, site.id), 200)).published).toBe(false);
    },
  },
  {
    name: 'unpublishSite',
    run: async (env) => {
      const { site } = await newSite(env);
      await expectStatus(env.api.orgs.publishSite(ORG, site.id), 200);
      expect(await expectStatus(env.api.orgs.unpublishSite(ORG, site.id), 200)).toMatchObject({ published: false });
    },
  },
  {
    name: 'getSitePublishingAuthById',
    run: async (env) => {
      const { site } = await newSite(env);
      const auth = await expectStatus(env.api.orgs.getSitePublishingAuthById(ORG, site.id), 200);
      expect(auth).toMatchObject({ object: 'publishing-auth', backend: 'custom', privateKey: expect.any(String) });
      // Reading never changes the key.
      expect((await expectStatus(env.api.orgs.getSitePublishingAuthById(ORG, site.id), 200)).privateKey).toBe(
        auth.privateKey,
      );
    },
  },
  {
    name: 'updateSitePublishingAuthById: backend, fallbackURL and logoutURL set and unset',
    run: async (env) => {
      const { site } = await newSite(env);
      const before = await expectStatus(env.api.orgs.getSitePublishingAuthById(ORG, site.id), 200);
      const set = await expectStatus(
        env.api.orgs.updateSitePublishingAuthById(ORG, site.id, {
          backend: 'custom',
          fallbackURL: 'https://acme.test/login',
          logoutURL: 'https://acme.test/logout',
        }),
        200,
      );
      expect(set).toMatchObject({
        fallbackURL: 'https://acme.test/login',
        logoutURL: 'https://acme.test/logout',
        privateKey: before.privateKey,
      });
      const unset = await expectStatus(
        env.api.orgs.updateSitePublishingAuthById(ORG, site.id, { backend: 'custom', fallbackURL: null }),
        200,
      );
      expect(unset.fallbackURL).toBeUndefined();
      expect(unset.logoutURL).toBe('https://acme.test/logout');
    },
  },
  {
    name: 'regenerateSitePublishingAuthById',
    run: async (env) => {
      const { site } = await newSite(env);
      const before = await expectStatus(env.api.orgs.getSitePublishingAuthById(ORG, site.id), 200);
      const after = await expectStatus(env.api.orgs.regenerateSitePublishingAuthById(ORG, site.id), 200);
      expect(after.privateKey).not.toBe(before.privateKey);
      expect((await expectStatus(env.api.orgs.getSitePublishingAuthById(ORG, site.id), 200)).privateKey).toBe(
        after.privateKey,
      );
    },
  },
];

const topLevel = async ({ api }: Env, site: string): Promise<unknown[]> =>
  (
    (await expectStatus(api.orgs.getSiteStructure(ORG, site), 200)).structure as {
      object: string;
      id: string;
      children?: { object: string; id: string }[];
    }[]
  ).map((i) =>
    i.object === 'site-section-group'
      ? { group: i.id, links: (i.children ?? []).filter((c) => c.object === 'site-external-link').map((c) => c.id) }
      : i.object === 'site-external-link'
        ? { link: i.id }
        : i.id,
  );

export const SITE_LINK_CASES: Case[] = [
  {
    name: 'addExternalLinkToSite: at the top level and in a group, every field',
    run: async (env) => {
      const { site, api } = await sectionedSite(env);
      const group = await expectStatus(env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'More' }), 201);
      const top = await expectStatus(
        env.api.orgs.addExternalLinkToSite(ORG, site.id, { title: 'Status', url: 'https://status.acme.test' }),
        201,
      );
      const inGroup = await expectStatus(
        env.api.orgs.addExternalLinkToSite(ORG, site.id, {
          title: 'Blog',
          url: 'https://acme.test/blog',
          parent: group.id,
          description: 'News',
          icon: 'newspaper',
          draft: true,
          condition: 'visitor.claims.beta === true',
          localizedTitle: { fr: 'Blogue' },
          localizedDescription: { fr: 'Nouvelles' },
        }),
        201,
      );
      expect(inGroup).toMatchObject({
        object: 'site-external-link',
        sectionGroup: group.id,
        draft: true,
        icon: 'newspaper',
        localizedTitle: { fr: 'Blogue' },
      });
      expect(await topLevel(env, site.id)).toEqual([
        api.id,
        expect.any(String),
        { group: group.id, links: [inGroup.id] },
        { link: top.id },
      ]);
      expect(
        await statusOf(
          env.api.orgs.addExternalLinkToSite(ORG, site.id, { title: 'Xx', url: 'https://x.test', parent: 'grp-nope' }),
        ),
      ).toBe(400);
      const { site: plain } = await newSite(env);
      expect(
        await statusOf(env.api.orgs.addExternalLinkToSite(ORG, plain.id, { title: 'Xx', url: 'https://x.test' })),
      ).toBe(400);
    },
  },
  {
    name: 'updateSiteExternalLinkById: fields set and unset, moved into a group and back',
    run: async (env) => {
      const { site } = await sectionedSite(env);
      const group = await expectStatus(env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'More' }), 201);
      const link = await expectStatus(
        env.api.orgs.addExternalLinkToSite(ORG, site.id, {
          title: 'Status',
          url: 'https://status.acme.test',
          description: 'Uptime',
        }),
        201,
      );
      const moved = await expectStatus(
        env.api.orgs.updateSiteExternalLinkById(ORG, site.id, link.id, {
          parent: group.id,
          url: 'https://status2.acme.test',
          description: null,
          draft: true,
        }),
        200,
      );
      expect(moved).toMatchObject({ sectionGroup: group.id, url: 'https://status2.acme.test', draft: true });
      expect(moved.description).toBeUndefined();
      const back = await expectStatus(
        env.api.orgs.updateSiteExternalLinkById(ORG, site.id, link.id, { parent: null, title: 'Uptime' }),
        200,
      );
      expect(back.sectionGroup).toBeUndefined();
      expect(back.title).toBe('Uptime');
      expect(await statusOf(env.api.orgs.updateSiteExternalLinkById(ORG, site.id, 'xl-nope', { title: 'Nope' }))).toBe(
        404,
      );
    },
  },
  {
    name: 'deleteSiteExternalLinkById',
    run: async (env) => {
      const { site } = await sectionedSite(env);
      const link = await expectStatus(
        env.api.orgs.addExternalLinkToSite(ORG, site.id, { title: 'Status', url: 'https://status.acme.test' }),
        201,
      );
      expect(await statusOf(env.api.orgs.deleteSiteExternalLinkById(ORG, site.id, link.id))).toBe(205);
      expect(await statusOf(env.api.orgs.deleteSiteExternalLinkById(ORG, site.id, link.id))).toBe(204);
      expect((await topLevel(env, site.id)).filter((x) => typeof x === 'object')).toEqual([]);
    },
  },
  {
    name: "sortSiteStructure: an external link among its container's links",
    run: async (env) => {
      const { site } = await sectionedSite(env);
      const a = await expectStatus(
        env.api.orgs.addExternalLinkToSite(ORG, site.id, { title: 'Alpha', url: 'https://a.test' }),
        201,
      );
      const b = await expectStatus(
        env.api.orgs.addExternalLinkToSite(ORG, site.id, { title: 'Beta', url: 'https://b.test' }),
        201,
      );
      await expectStatus(
        env.api.orgs.sortSiteStructure(ORG, site.id, {
          item: { type: 'site-external-link', id: b.id },
          position: { before: { type: 'site-external-link', id: a.id } },
        }),
        200,
      );
      expect((await topLevel(env, site.id)).filter((x) => typeof x === 'object')).toEqual([
        { link: b.id },
        { link: a.id },
      ]);
    },
  },
];
