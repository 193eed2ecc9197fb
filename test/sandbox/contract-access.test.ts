/**
 * CONTRACT CHECK for access and appearance: content permissions (spaces, collections, sites), the member's space
 * list, site customization and the adaptive schema's official form, against the official OpenAPI spec.
 *
 * - Responses: every success body the sandbox answers validates against the operation's response schema, and
 *   the error bodies where the spec declares one (404 NotFoundError, 400 BadRequestError).
 * - Requests: the bodies docops will send validate against the operation's request schema, and the sandbox
 *   accepts them. Where the spec refuses a body, the sandbox refuses it too (400/404, differential lists below);
 *   the one direction where they differ on purpose is unknown fields (the spec's schemas let them through, the
 *   sandbox refuses them) — asserted here so the difference stays visible.
 *
 * Skipped: every 204/205 answer (no body); `…/permissions/aggregate` (not implemented, docs/dev/api-differences.md §5).
 */
import { describe, expect, it } from 'vitest';
import { defaultCustomization } from '../../packages/sandbox/src/customization.js';
import { UNSIGNED_DESCRIPTION } from '../../packages/sandbox/src/routes/site-adaptive.js';
import { requestValidator, responseValidator } from './contract-spec.js';
import { SPEC_REFUSES, UNKNOWN_FIELDS, richCustomization } from './customization-bodies.js';
import { sandbox, type Client, type Json } from './helpers.js';
import { SITES, newSite } from './site-fixture.js';

type Validate = ReturnType<typeof responseValidator>;

function expectValid(validate: Validate, body: unknown): void {
  const valid = validate(body);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

const SITE = '/orgs/{organizationId}/sites/{siteId}';
/** Spec path prefix → how to build a concrete `…/permissions` path. */
const TARGETS: { spec: string; make(call: Client['call']): Promise<string> }[] = [
  { spec: '/spaces/{spaceId}/permissions', make: async () => '/spaces/sp-api/permissions' },
  { spec: '/collections/{collectionId}/permissions', make: async () => '/collections/col-product/permissions' },
  { spec: `${SITE}/permissions`, make: async (call) => `${(await newSite(call, { title: 'Help' })).path}/permissions` },
];

/** The bodies docops sends to grant and change roles. */
const INVITES: Json[] = [
  { role: 'edit', teams: ['team-writers', 'team-support'] },
  { role: 'read', users: ['u-bob', 'u-carol'] },
  { role: 'admin', teams: ['team-platform'], users: ['u-dan'] },
];

describe.each(TARGETS)('contract: $spec', ({ spec, make }) => {
  it('the bodies docops sends are valid requests; the lists answer valid pages (with and without next)', async () => {
    const { call } = await sandbox();
    const base = await make(call);
    for (const body of INVITES) {
      expectValid(requestValidator('POST', spec), body);
      expect((await call('POST', base, body)).status).toBe(204);
    }
    for (const type of ['teams', 'users']) {
      const patch = { role: 'comment' };
      expectValid(requestValidator('PATCH', `${spec}/${type}/{${type === 'teams' ? 'teamId' : 'userId'}}`), patch);
      const one = type === 'teams' ? 'team-support' : 'u-carol';
      expect((await call('PATCH', `${base}/${type}/${one}`, patch)).status).toBe(204);
      const validate = responseValidator('GET', `${spec}/${type}`, 200);
      const page = await call('GET', `${base}/${type}?limit=1`);
      expect(page.body.next).toBeDefined();
      expectValid(validate, page.body);
      const all = await call('GET', `${base}/${type}`);
      expect(all.body.count).toBe(3);
      expectValid(validate, all.body);
    }
  });

  it('bodies the spec refuses, the sandbox refuses; unknown ids answer the spec NotFoundError', async () => {
    const { call } = await sandbox();
    const base = await make(call);
    const refused: Json[] = [
      { teams: ['team-writers'] },
      { role: 'edit' },
      { role: 'edit', teams: [] },
      { role: 'owner', users: ['u-bob'] },
      { role: 'edit', users: [1] },
    ];
    for (const body of refused) {
      expect(requestValidator('POST', spec)(body), JSON.stringify(body)).toBe(false);
      const res = await call('POST', base, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const bad = await call('POST', base, { role: 'edit', teams: ['team-writers'], note: 'x' });
    expect(requestValidator('POST', spec)({ role: 'edit', teams: ['team-writers'], note: 'x' })).toBe(true); // the spec lets it through
    expect(bad.status).toBe(400);
    const missing = await call('POST', base, { role: 'edit', teams: ['team-nope'] });
    expect(missing.status).toBe(404);
    expectValid(responseValidator('POST', spec, 404), missing.body);
    const noGrant = await call('PATCH', `${base}/teams/team-writers`, { role: 'read' });
    expect(noGrant.status).toBe(404);
    expectValid(responseValidator('PATCH', `${spec}/teams/{teamId}`, 404), noGrant.body);
  });
});

describe('contract: site null overrides and the member objects', () => {
  it('a null site override is a valid request and a valid list item', async () => {
    const { call } = await sandbox();
    const base = `${(await newSite(call, { title: 'Help' })).path}/permissions`;
    const body = { role: null, teams: ['team-support'], users: ['u-frank'] };
    expectValid(requestValidator('POST', `${SITE}/permissions`), body);
    expect((await call('POST', base, body)).status).toBe(204);
    expectValid(responseValidator('GET', `${SITE}/permissions/teams`, 200), (await call('GET', `${base}/teams`)).body);
    expectValid(responseValidator('GET', `${SITE}/permissions/users`, 200), (await call('GET', `${base}/users`)).body);
    // The spec's PATCH on a site takes a role, never null; nor does the sandbox.
    expect(requestValidator('PATCH', `${SITE}/permissions/users/{userId}`)({ role: null })).toBe(false);
    expect((await call('PATCH', `${base}/users/u-frank`, { role: null })).status).toBe(400);
  });

  it('GET …/members/{userId}/spaces, and members and teams with grants', async () => {
    const { call } = await sandbox();
    await call('POST', '/spaces/sp-api/permissions', { role: 'edit', users: ['u-bob'], teams: ['team-writers'] });
    await call('POST', '/spaces/sp-runbooks/permissions', { role: 'read', users: ['u-bob'] });
    const spaces = await call('GET', '/orgs/org-demo/members/u-bob/spaces?limit=1');
    expect(spaces.body.items).toHaveLength(1);
    expectValid(responseValidator('GET', '/orgs/{organizationId}/members/{userId}/spaces', 200), spaces.body);
    const member = await call('GET', '/orgs/org-demo/members/u-bob');
    expect(member.body.spaces).toBe(2);
    expectValid(responseValidator('GET', '/orgs/{organizationId}/members/{userId}', 200), member.body);
    const team = await call('GET', '/orgs/org-demo/teams/team-writers');
    expect(team.body.spaces).toBe(1);
    expectValid(responseValidator('GET', '/orgs/{organizationId}/teams/{teamId}', 200), team.body);
  });
});

describe('contract: site customization', () => {
  const spec = `${SITE}/customization`;

  it('GET of a new site, PUT of the whole object (a valid request) and its answer match the spec', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    const initial = await call('GET', `${site.path}/customization`);
    expectValid(responseValidator('GET', spec, 200), initial.body);
    expectValid(requestValidator('PUT', spec), defaultCustomization());
    const body = richCustomization(initial.body);
    expectValid(requestValidator('PUT', spec), body);
    const put = await call('PUT', `${site.path}/customization`, body);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expectValid(responseValidator('PUT', spec, 200), put.body);
    expectValid(responseValidator('GET', spec, 200), (await call('GET', `${site.path}/customization`)).body);
  });

  it('every change the spec refuses, the sandbox refuses (400, BadRequestError); unknown fields only the sandbox', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    const base = richCustomization((await call('GET', `${site.path}/customization`)).body);
    const validateRequest = requestValidator('PUT', spec);
    const badRequest = responseValidator('PUT', spec, 400);
    for (const [name, change] of SPEC_REFUSES) {
      const body = structuredClone(base);
      change(body);
      expect(validateRequest(body), `spec accepts "${name}"`).toBe(false);
      const res = await call('PUT', `${site.path}/customization`, body);
      expect(res.status, name).toBe(400);
      expectValid(badRequest, res.body);
    }
    for (const [name, change] of UNKNOWN_FIELDS) {
      const body = structuredClone(base);
      change(body);
      expect(validateRequest(body), `spec refuses "${name}"`).toBe(true);
      expect((await call('PUT', `${site.path}/customization`, body)).status, name).toBe(400);
    }
  });
});

describe('contract: site adaptive schema, official form', () => {
  const spec = `${SITE}/adaptive-schema`;
  /** The body docops must send: every claim described, `unsigned` with the spec's fixed description. */
  const official = {
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        staff: { type: 'boolean', description: 'Visitor is an Acme employee' },
        unsigned: {
          type: 'object',
          description: UNSIGNED_DESCRIPTION,
          properties: { beta: { type: 'boolean', description: 'Visitor opted into beta' } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  };

  it('the official body is a valid request; the sandbox stores it (200) and answers it unchanged, as the spec shapes it', async () => {
    expect(UNSIGNED_DESCRIPTION).toBe(
      (await import('./contract-spec.js')).spec.components.schemas.SiteAdaptiveJSONSchema.properties.properties
        .properties.unsigned.properties.description.enum[0],
    );
    expectValid(requestValidator('PUT', spec), official);
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    const put = await call('PUT', `${SITES}/${site.id}/adaptive-schema`, official);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.jsonSchema).toEqual(official.jsonSchema);
    expectValid(responseValidator('PUT', spec, 200), put.body);
    const get = await call('GET', `${SITES}/${site.id}/adaptive-schema`);
    expect(get.body).toEqual(put.body);
    expectValid(responseValidator('GET', spec, 200), get.body);
    const conditions = (await call('GET', `${SITES}/${site.id}/adaptive-schema/template-conditions`)).body.items;
    expect(conditions).toEqual([
      { description: 'Visitor is an Acme employee', condition: 'visitor.claims.staff === true' },
      { description: 'Visitor opted into beta', condition: 'visitor.claims.unsigned.beta === true' },
    ]);
  });

  it('the form without descriptions, which the spec refuses, the sandbox refuses too (400 BadRequestError), keeping the schema; so does a wrong unsigned description', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    const url = `${SITES}/${site.id}/adaptive-schema`;
    expect((await call('PUT', url, official)).status).toBe(200);
    const bare = (change: (s: typeof official.jsonSchema) => void): typeof official => {
      const body = structuredClone(official);
      change(body.jsonSchema);
      return body;
    };
    const refused: [typeof official, string][] = [
      [
        bare((s) => delete (s.properties.staff as { description?: string }).description),
        'body.jsonSchema.properties.staff.description: is required',
      ],
      [
        bare((s) => delete (s.properties.unsigned as { description?: string }).description),
        'body.jsonSchema.properties.unsigned.description: is required',
      ],
      [
        bare((s) => delete (s.properties.unsigned.properties.beta as { description?: string }).description),
        'body.jsonSchema.properties.unsigned.properties.beta.description',
      ],
      [
        bare((s) => (s.properties.unsigned.description = 'Unsigned claims')),
        'body.jsonSchema.properties.unsigned.description',
      ],
    ];
    for (const [body, message] of refused) {
      expect(requestValidator('PUT', spec)(body), message).toBe(false);
      const res = await call('PUT', url, body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toContain(message);
      expectValid(responseValidator('PUT', spec, 400), res.body);
    }
    expect((await call('GET', url)).body.jsonSchema).toEqual(official.jsonSchema);
  });
});
