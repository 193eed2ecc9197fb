/**
 * Space and change-request content, search, space duplicate, integrations and the small organization operations
 * (e-mail domains, ping, invite links), through the official client, against the demo seed's content
 * (packages/sandbox/src/seed-content.ts).
 */
import { expect } from 'vitest';
import { linkInvites, members, memberKey } from '../../../packages/sandbox/src/records.js';
import type { Json } from '../helpers.js';
import { ORG, expectStatus, statusOf, type Env } from './harness.js';
import type { Case } from './cases.js';

type Call = (...args: unknown[]) => Promise<{ status: number; data: Json }>;

/** The content operations of one host, by the client's method names. */
const HOSTS = [
  {
    ids: ['sp-api'],
    revision: 'getCurrentRevision',
    pages: 'listPages',
    files: 'listFiles',
    file: 'getFileById',
    page: 'getPageById',
    titles: ['Overview', 'Authentication', 'Reference'],
  },
  {
    ids: ['sp-api', '1'],
    revision: 'getRevisionOfChangeRequestById',
    pages: 'listPagesInChangeRequest',
    files: 'listFilesInChangeRequestById',
    file: 'getFileInChangeRequestById',
    page: 'getPageInChangeRequestById',
    titles: ['Overview', 'Authentication', 'Reference', 'Limits'],
  },
] as const;

function contentCases(h: (typeof HOSTS)[number]): Case[] {
  const op = ({ api }: Env, name: string): ((...args: unknown[]) => Promise<{ status: number; data: Json }>) => {
    const fn = (api.spaces as unknown as Record<string, Call>)[name];
    if (!fn) throw new Error(`the client has no ${name}`);
    return (...args) => fn.call(api.spaces, ...h.ids, ...args);
  };
  return [
    {
      name: `${h.revision}: metadata, computed`,
      run: async (env) => {
        const r = await expectStatus(op(env, h.revision)({ metadata: false, computed: false }), 200);
        expect(r).toMatchObject({ object: 'revision', type: 'edits' });
        expect(r.pages.map((p: Json) => p.title)).toEqual(h.titles);
      },
    },
    {
      name: `${h.pages}: metadata`,
      run: async (env) =>
        expect((await expectStatus(op(env, h.pages)({ metadata: true }), 200)).pages.map((p: Json) => p.title)).toEqual(
          h.titles,
        ),
    },
    {
      name: `${h.files}: limit`,
      run: async (env) => {
        const first = await expectStatus(op(env, h.files)({ limit: 1 }), 200);
        expect(first.items.map((f: Json) => f.id)).toEqual(['file-api-diagram']);
        const rest = await expectStatus(op(env, h.files)({ limit: 1, page: first.next.page }), 200);
        expect(rest.items.map((f: Json) => f.id)).toEqual(['file-api-spec']);
      },
    },
    {
      name: `${h.file}`,
      run: async (env) => {
        expect(await expectStatus(op(env, h.file)('file-api-diagram'), 200)).toMatchObject({
          name: 'architecture.png',
          dimensions: { width: 1200 },
        });
        expect(await statusOf(op(env, h.file)('file-nope'))).toBe(404);
      },
    },
    {
      name: `${h.page}: format document`,
      run: async (env) => {
        const p = await expectStatus(op(env, h.page)('pg-api-errors', { format: 'document' }), 200);
        expect(p).toMatchObject({ title: 'Errors', path: 'reference/errors', document: { object: 'document' } });
        expect((await expectStatus(op(env, h.page)('pg-api-auth'), 200)).markdown).toContain('bearer token');
        expect(await statusOf(op(env, h.page)('pg-nope'))).toBe(404);
      },
    },
  ];
}

const SAMPLE = {
  title: 'Acme Status',
  description: 'Status badges.',
  scopes: ['space:content:read' as const],
  script: 'export default {};',
  organization: ORG,
};

export const SPACE_CONTENT_CASES: Case[] = [
  ...HOSTS.flatMap(contentCases),
  {
    name: 'searchSpaceContent: query, limit',
    run: async ({ api }) => {
      const found = await expectStatus(api.spaces.searchSpaceContent('sp-api', { query: 'token', limit: 5 }), 200);
      expect(found.items.map((p) => p.id)).toEqual(['pg-api-auth']);
      expect(found.items[0]?.sections?.[0]).toMatchObject({ title: 'Authentication' });
      expect(await statusOf(api.spaces.searchSpaceContent('sp-api', { query: 'x'.repeat(513) }))).toBe(400);
    },
  },
  {
    name: 'searchOrganizationContent: query',
    run: async ({ api }) => {
      const found = await expectStatus(api.orgs.searchOrganizationContent(ORG, { query: 'install' }), 200);
      expect(found.items.map((s) => [s.id, s.pages.map((p) => p.id)])).toEqual([
        ['sp-getting-started', ['pg-gs-install', 'pg-gs-welcome']],
      ]);
    },
  },
  {
    name: 'duplicateSpace',
    run: async ({ api }) => {
      const copy = await expectStatus(api.spaces.duplicateSpace('sp-api'), 201);
      expect(copy).toMatchObject({ title: 'API Reference (copy)', parent: 'col-product' });
      expect((await expectStatus(api.spaces.listPages(copy.id), 200)).pages.map((p) => p.title)).toEqual([
        'Overview',
        'Authentication',
        'Reference',
      ]);
    },
  },
  {
    name: 'getOrganizationsForEmailDomain',
    run: async ({ api }) => {
      expect(
        (await expectStatus(api.emailDomains.getOrganizationsForEmailDomain('ACME.test'), 200)).organizations.map(
          (o) => o.id,
        ),
      ).toEqual([ORG]);
      expect(
        (await expectStatus(api.emailDomains.getOrganizationsForEmailDomain('nobody.test'), 200)).organizations,
      ).toEqual([]);
    },
  },
  {
    name: 'updateOrganizationMemberLastSeenAt',
    run: async ({ api, sb }) => {
      const before = members(sb.store).get(memberKey(ORG, 'u-ada'))?.lastSeenAt;
      await expectStatus(api.orgs.updateOrganizationMemberLastSeenAt(ORG), 200);
      expect(members(sb.store).get(memberKey(ORG, 'u-ada'))?.lastSeenAt).not.toBe(before);
    },
  },
  {
    name: 'deleteOrganizationInviteById',
    run: async ({ api, sb }) => {
      expect(await statusOf(api.orgs.deleteOrganizationInviteById(ORG, 'inv-writers'))).toBe(205);
      expect(linkInvites(sb.store).has('inv-writers')).toBe(false);
      expect(await statusOf(api.orgs.deleteOrganizationInviteById(ORG, 'inv-writers'))).toBe(204);
    },
  },
  {
    name: 'listIntegrations: search, category, blocks, owner, scope, target',
    run: async ({ api }) => {
      const names = async (q: Json): Promise<string[]> =>
        (await expectStatus(api.integrations.listIntegrations(q), 200)).items.map((i) => i.name);
      expect(await names({})).toEqual(['acme-analytics', 'acme-embeds']);
      expect(await names({ search: 'embed', blocks: true, owner: ORG, target: 'space' })).toEqual(['acme-embeds']);
      expect(await names({ category: 'analytics', scope: 'site:views:read', limit: 1 })).toEqual(['acme-analytics']);
      expect(await names({ blockDomain: 'dash.acme.test' })).toEqual(['acme-embeds']);
    },
  },
  {
    name: 'getIntegrationByName',
    run: async ({ api }) =>
      expect(await expectStatus(api.integrations.getIntegrationByName('acme-analytics'), 200)).toMatchObject({
        version: 3,
        owner: { id: ORG },
      }),
  },
  {
    name: 'publishIntegration: new, then a new version',
    run: async ({ api }) => {
      expect(
        await expectStatus(
          api.integrations.publishIntegration('acme-status', {
            ...SAMPLE,
            visibility: 'public',
            categories: ['other'],
          }),
          200,
        ),
      ).toMatchObject({ name: 'acme-status', version: 1 });
      expect(
        (
          await expectStatus(
            api.integrations.publishIntegration('acme-status', { ...SAMPLE, title: 'Acme Status 2' }),
            200,
          )
        ).version,
      ).toBe(2);
      expect((await expectStatus(api.integrations.getIntegrationByName('acme-status'), 200)).title).toBe(
        'Acme Status 2',
      );
    },
  },
  {
    name: 'unpublishIntegration',
    run: async ({ api }) => {
      expect(await statusOf(api.integrations.unpublishIntegration('acme-embeds'))).toBe(205);
      expect(await statusOf(api.integrations.getIntegrationByName('acme-embeds'))).toBe(404);
    },
  },
  {
    name: 'listIntegrationInstallations: externalId',
    run: async ({ api }) => {
      expect(
        (
          await expectStatus(
            api.integrations.listIntegrationInstallations('acme-analytics', { externalId: 'acme-prod' }),
            200,
          )
        ).items.map((i) => i.id),
      ).toEqual(['inst-analytics']);
      expect(
        (
          await expectStatus(
            api.integrations.listIntegrationInstallations('acme-analytics', { externalId: 'other' }),
            200,
          )
        ).items,
      ).toEqual([]);
    },
  },
];
