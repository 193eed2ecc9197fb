/**
 * CONTRACT CHECK: the sandbox's success bodies validate against the official OpenAPI spec (npm @gitbook/api,
 * OpenAPI 3.1 ⇒ JSON Schema 2020-12) for every operation where management-api.md and the spec agree.
 *
 * Checked: every operation in OPERATIONS below (organizations, user, members, invites, teams, team member
 * list, collections, spaces incl. restore), list responses both with and without a `next` page, and the
 * error body of a 404 and a 400 against the spec's NotFoundError / BadRequestError.
 *
 * Skipped, and why:
 * - translations: management-api.md describes "translation settings" {title, languages}; the spec's
 *   Translation is a different resource (source/language/instructions, no title) — see docs/dev/api-differences.md;
 * - deletes: no body, and the status semantics differ (management-api.md: 205 / 204 by resource; spec: 205
 *   deleted, 204 absent) — statuses are asserted in the resource tests instead;
 * - PUT team members (bulk and single): 204 with no body, nothing to validate.
 *
 * Sites (SITE_OPERATIONS, against a published site built through the API): every site, section, group, site
 * space, share link and adaptive-schema operation, except:
 * - GET .../published: the spec's PublishedContentSite requires `customizations` and `scripts`, which
 *   management-api.md leaves "not shown" — the sandbox returns only object/site/structure;
 * - POST/DELETE .../section-groups/{g}/sections: not in the spec (management-api.md only);
 * - `agentsContext` is not in the spec; Site has no `additionalProperties: false`, so the field is allowed.
 */
import { describe, expect, it } from 'vitest';
import { sites } from '../../packages/sandbox/src/site-records.js';
import { responseValidator } from './contract-spec.js';
import { sandbox } from './helpers.js';
import { SITES, buildContractSite, type ContractSite } from './site-fixture.js';

interface Operation {
  method: string;
  /** Path as the spec writes it. */
  spec: string;
  /** Concrete path to call below /v1. */
  path: string;
  body?: unknown;
  status: number;
}

const O = 'org-demo';
const OPERATIONS: Operation[] = [
  { method: 'GET', spec: '/orgs', path: '/orgs', status: 200 },
  { method: 'GET', spec: '/orgs/{organizationId}', path: `/orgs/${O}`, status: 200 },
  {
    method: 'PATCH',
    spec: '/orgs/{organizationId}',
    path: `/orgs/${O}`,
    status: 200,
    body: { title: 'Acme', logo: 'https://cdn.acme.test/l.png', defaultRole: null },
  },
  { method: 'GET', spec: '/user', path: '/user', status: 200 },
  { method: 'GET', spec: '/users/{userId}', path: '/users/u-bob', status: 200 },
  { method: 'GET', spec: '/orgs/{organizationId}/members', path: `/orgs/${O}/members`, status: 200 },
  {
    method: 'GET',
    spec: '/orgs/{organizationId}/members',
    path: `/orgs/${O}/members?limit=2&sort=lastSeenAt`,
    status: 200,
  },
  { method: 'GET', spec: '/orgs/{organizationId}/members/{userId}', path: `/orgs/${O}/members/u-bob`, status: 200 },
  {
    method: 'PATCH',
    spec: '/orgs/{organizationId}/members/{userId}',
    path: `/orgs/${O}/members/u-dan`,
    body: { role: null },
    status: 200,
  },
  {
    method: 'POST',
    spec: '/orgs/{organizationId}/members/{userId}/sso',
    path: `/orgs/${O}/members/u-bob/sso`,
    status: 200,
  },
  {
    method: 'GET',
    spec: '/orgs/{organizationId}/members/{userId}/teams',
    path: `/orgs/${O}/members/u-bob/teams`,
    status: 200,
  },
  {
    method: 'POST',
    spec: '/orgs/{organizationId}/invites',
    path: `/orgs/${O}/invites`,
    body: { emails: ['n@acme.test', { email: 'm@acme.test', role: 'edit' }] },
    status: 200,
  },
  { method: 'GET', spec: '/orgs/{organizationId}/teams', path: `/orgs/${O}/teams?limit=2`, status: 200 },
  {
    method: 'PUT',
    spec: '/orgs/{organizationId}/teams',
    path: `/orgs/${O}/teams`,
    body: { title: 'New', members: ['u-bob'] },
    status: 201,
  },
  { method: 'GET', spec: '/orgs/{organizationId}/teams/{teamId}', path: `/orgs/${O}/teams/team-platform`, status: 200 },
  {
    method: 'PATCH',
    spec: '/orgs/{organizationId}/teams/{teamId}',
    path: `/orgs/${O}/teams/team-support`,
    body: { title: 'Help' },
    status: 200,
  },
  {
    method: 'GET',
    spec: '/orgs/{organizationId}/teams/{teamId}/members',
    path: `/orgs/${O}/teams/team-platform/members`,
    status: 200,
  },
  { method: 'GET', spec: '/orgs/{organizationId}/collections', path: `/orgs/${O}/collections`, status: 200 },
  {
    method: 'POST',
    spec: '/orgs/{organizationId}/collections',
    path: `/orgs/${O}/collections`,
    body: { title: 'C', parent: 'col-product' },
    status: 201,
  },
  { method: 'GET', spec: '/collections/{collectionId}', path: '/collections/col-product', status: 200 },
  {
    method: 'PATCH',
    spec: '/collections/{collectionId}',
    path: '/collections/col-internal',
    status: 200,
    body: { title: 'In', description: 'Internal only', defaultLevel: 'read' },
  },
  { method: 'GET', spec: '/collections/{collectionId}/spaces', path: '/collections/col-product/spaces', status: 200 },
  { method: 'GET', spec: '/orgs/{organizationId}/spaces', path: `/orgs/${O}/spaces`, status: 200 },
  {
    method: 'POST',
    spec: '/orgs/{organizationId}/spaces',
    path: `/orgs/${O}/spaces`,
    body: { title: 'S', emoji: '✨', parent: 'col-internal', editMode: 'locked' },
    status: 201,
  },
  { method: 'GET', spec: '/spaces/{spaceId}', path: '/spaces/sp-api', status: 200 },
  {
    method: 'PATCH',
    spec: '/spaces/{spaceId}',
    path: '/spaces/sp-changelog',
    body: { title: 'News', emoji: '📰', defaultLevel: 'comment' },
    status: 200,
  },
];

describe('contract: sandbox responses match the official spec schemas', () => {
  it.each(OPERATIONS)('$method $path', async (op) => {
    const { call } = await sandbox();
    const res = await call(op.method, op.path, op.body);
    expect(res.status, JSON.stringify(res.body)).toBe(op.status);
    const validate = responseValidator(op.method, op.spec, op.status);
    const valid = validate(res.body);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('a deleted space (with deletedAt) and its restore match the Space schema', async () => {
    const { call } = await sandbox();
    await call('DELETE', '/spaces/sp-runbooks');
    const deleted = await call('GET', '/spaces/sp-runbooks');
    const get = responseValidator('GET', '/spaces/{spaceId}', 200);
    expect(get(deleted.body), JSON.stringify(get.errors)).toBe(true);
    const restored = await call('POST', '/spaces/sp-runbooks/restore');
    const restore = responseValidator('POST', '/spaces/{spaceId}/restore', 200);
    expect(restore(restored.body), JSON.stringify(restore.errors)).toBe(true);
  });

  it('PATCH /orgs/{organizationId} with a default content naming a site of the organization', async () => {
    const { call } = await sandbox();
    const site = (await call('POST', `/orgs/${O}/sites`, { title: 'Help' })).body.id;
    const res = await call('PATCH', `/orgs/${O}`, { defaultContent: { type: 'site', site } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.defaultContent).toEqual({ type: 'site', site });
    const validate = responseValidator('PATCH', '/orgs/{organizationId}', 200);
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
  });

  it('error bodies match NotFoundError and BadRequestError', async () => {
    const { call } = await sandbox();
    const missing = await call('GET', '/orgs/org-nope');
    const notFound = responseValidator('GET', '/orgs/{organizationId}', 404);
    expect(notFound(missing.body), JSON.stringify(notFound.errors)).toBe(true);
    const bad = await call('PATCH', `/orgs/${O}`, { title: 'x' });
    const badRequest = responseValidator('PATCH', '/orgs/{organizationId}', 400);
    expect(badRequest(bad.body), JSON.stringify(badRequest.errors)).toBe(true);
    // Ids a body names that do not exist are refused with the same body.
    const noSite = await call('PATCH', `/orgs/${O}`, { defaultContent: { type: 'site', site: 'site-nope' } });
    expect(noSite.status).toBe(400);
    expect(badRequest(noSite.body), JSON.stringify(badRequest.errors)).toBe(true);
    const cycle = await call('POST', '/collections/col-product/move', { parent: 'col-product' });
    expect(cycle.status).toBe(400);
    expect(responseValidator('POST', '/collections/{collectionId}/move', 400)(cycle.body)).toBe(true);
  });

  it('the validator is not vacuous: a body missing a required field fails', async () => {
    const { call } = await sandbox();
    const { body } = await call('GET', '/orgs/org-demo/teams/team-platform');
    const validate = responseValidator('GET', '/orgs/{organizationId}/teams/{teamId}', 200);
    delete body.permissions;
    expect(validate(body)).toBe(false);
  });
});

interface SiteOperation {
  method: string;
  spec: string;
  path: (f: ContractSite) => string;
  body?: (f: ContractSite) => unknown;
  status: number;
}

const S = '/orgs/{organizationId}/sites/{siteId}';
const at =
  (suffix = ''): ((f: ContractSite) => string) =>
  (f) =>
    `${SITES}/${f.site}${suffix}`;
const claims = {
  type: 'object',
  properties: { isBeta: { type: 'boolean', description: 'Beta tester' } },
  additionalProperties: false,
};
const SITE_OPERATIONS: SiteOperation[] = [
  { method: 'GET', spec: '/orgs/{organizationId}/sites', path: () => `${SITES}?published=true`, status: 200 },
  {
    method: 'POST',
    spec: '/orgs/{organizationId}/sites',
    path: () => SITES,
    body: () => ({ title: 'New', visibility: 'unlisted', spaces: ['sp-api'] }),
    status: 201,
  },
  { method: 'GET', spec: S, path: at(), status: 200 },
  {
    method: 'PATCH',
    spec: S,
    path: at(),
    body: (f) => ({ title: 'Docs 2', visibility: 'share-link', agentsContext: 'included', defaultSiteSection: f.b }),
    status: 200,
  },
  { method: 'GET', spec: `${S}/adaptive-schema`, path: at('/adaptive-schema'), status: 200 },
  {
    method: 'PUT',
    spec: `${S}/adaptive-schema`,
    path: at('/adaptive-schema'),
    body: () => ({ jsonSchema: claims }),
    status: 200,
  },
  {
    method: 'GET',
    spec: `${S}/adaptive-schema/template-conditions`,
    path: at('/adaptive-schema/template-conditions'),
    status: 200,
  },
  { method: 'GET', spec: `${S}/sections`, path: at('/sections'), status: 200 },
  {
    method: 'POST',
    spec: `${S}/sections`,
    path: at('/sections'),
    body: () => ({ spaceId: 'sp-runbooks', title: 'Ops', icon: 'gear' }),
    status: 201,
  },
  {
    method: 'PATCH',
    spec: `${S}/sections/{siteSectionId}`,
    path: (f) => at(`/sections/${f.a}`)(f),
    body: () => ({ title: 'How-to', path: 'how-to' }),
    status: 200,
  },
  {
    method: 'POST',
    spec: `${S}/sections/{siteSectionId}/move`,
    path: (f) => at(`/sections/${f.a}/move`)(f),
    status: 200,
    body: (f) => ({ position: { after: { type: 'site-section', siteSection: f.c } } }),
  },
  { method: 'GET', spec: `${S}/section-groups`, path: at('/section-groups'), status: 200 },
  {
    method: 'POST',
    spec: `${S}/section-groups`,
    path: at('/section-groups'),
    body: (f) => ({ title: 'All', sections: [f.a] }),
    status: 201,
  },
  {
    method: 'PATCH',
    spec: `${S}/section-groups/{siteSectionGroupId}`,
    path: (f) => at(`/section-groups/${f.group}`)(f),
    body: () => ({ icon: null }),
    status: 200,
  },
  {
    method: 'POST',
    spec: `${S}/section-groups/{siteSectionGroupId}/move`,
    path: (f) => at(`/section-groups/${f.group}/move`)(f),
    status: 200,
    body: (f) => ({ position: { before: { type: 'site-section', id: f.a } } }),
  },
  { method: 'GET', spec: `${S}/site-spaces`, path: at('/site-spaces?default=false'), status: 200 },
  {
    method: 'POST',
    spec: `${S}/site-spaces`,
    path: at('/site-spaces'),
    body: (f) => ({ spaceId: 'sp-api', sectionId: f.a }),
    status: 201,
  },
  {
    method: 'PATCH',
    spec: `${S}/site-spaces/{siteSpaceId}`,
    path: (f) => at(`/site-spaces/${f.extra}`)(f),
    body: () => ({ path: 'ops', condition: null }),
    status: 200,
  },
  {
    method: 'POST',
    spec: `${S}/site-spaces/{siteSpaceId}/move`,
    path: (f) => at(`/site-spaces/${f.extra}/move`)(f),
    status: 200,
    body: (f) => ({ position: { after: { type: 'site-space', siteSpace: f.aFirst } } }),
  },
  { method: 'GET', spec: `${S}/share-links`, path: at('/share-links'), status: 200 },
  { method: 'POST', spec: `${S}/share-links`, path: at('/share-links'), body: () => ({ name: 'Press' }), status: 201 },
  {
    method: 'PATCH',
    spec: `${S}/share-links/{shareLinkId}`,
    path: (f) => at(`/share-links/${f.link}`)(f),
    body: () => ({ active: false }),
    status: 200,
  },
];

describe('contract: site operations match the official spec schemas', () => {
  it.each(SITE_OPERATIONS)('$method $spec', async (op) => {
    const { call, sb } = await sandbox();
    const f = await buildContractSite(call, (id) => {
      const site = sites(sb.store).get(id);
      if (site) sites(sb.store).put({ ...site, published: true });
    });
    const res = await call(op.method, op.path(f), op.body?.(f));
    expect(res.status, JSON.stringify(res.body)).toBe(op.status);
    const validate = responseValidator(op.method, op.spec, op.status);
    const valid = validate(res.body);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });
});
