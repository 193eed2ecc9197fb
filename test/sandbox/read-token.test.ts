/**
 * The sandbox's optional read-only token: its own user, a `read` member of every organization; GETs answer as for
 * the admin token (except the caller-dependent `permissions` flags and GET /user), every write is 403 and changes
 * nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxCommand } from '../../packages/sandbox/src/cli.js';
import {
  READ_TOKEN_USER_EMAIL,
  READ_TOKEN_USER_ID,
  memberKey,
  members,
  orgs,
  startSandbox,
  users,
} from '@docops/sandbox';
import type { RouteDef } from '../../packages/sandbox/src/router.js';
import { ROUTES } from '../../packages/sandbox/src/routes/index.js';
import { sites } from '../../packages/sandbox/src/site-records.js';
import { request, sandbox, type Json } from './helpers.js';
import { buildContractSite, type ContractSite } from './site-fixture.js';

const READ = 'read-only-token';
const ORG = '/orgs/org-demo';

/** Every route the sandbox serves, read from its route table (so new routes are covered). */
function allRoutes(): RouteDef[] {
  return Object.values(ROUTES);
}

/** A concrete path below /v1 for a route pattern, with ids of objects that exist. */
function concretePath(pattern: string, f: ContractSite): string {
  const ids: Record<string, string> = {
    organizationId: 'org-demo',
    userId: 'u-bob',
    teamId: 'team-platform',
    spaceId: 'sp-api',
    collectionId: 'col-product',
    translationId: 'tr-fr',
    siteId: f.site,
    siteSectionId: f.a,
    siteSectionGroupId: f.group,
    siteSpaceId: f.aFirst,
    shareLinkId: f.link,
    ...SSO_OPENAPI_IDS,
    // The demo seed's content and discussions (packages/sandbox/src/seed-content.ts): a change request's comment is its own.
    ...(pattern.includes('/change-requests/')
      ? { commentId: 'cm-cr-1', commentReplyId: 'cm-cr-1-r1' }
      : { commentId: 'cm-api-1', commentReplyId: 'cm-api-1-r1' }),
    changeRequestId: 'cr-api-1',
    pageId: 'pg-api-auth',
    fileId: 'file-api-diagram',
    integrationName: 'acme-analytics',
    emailDomain: 'acme.test',
  };
  const path = pattern
    .replace(/^\/v1/, '')
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(ids[name] ?? `unknown-${name}`));
  // The lookup of a redirect by source takes a required query (fullSandbox creates the rule); search takes one too.
  if (path.endsWith('/redirect')) return `${path}?source=${encodeURIComponent(REDIRECT_SOURCE)}`;
  return path.endsWith('/search') ? `${path}?query=token` : path;
}

const REDIRECT_SOURCE = '/old/page';

/** A body with the caller-dependent `permissions` objects removed. */
function withoutPermissions(v: Json): Json {
  if (Array.isArray(v)) return v.map(withoutPermissions);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== 'permissions')
      .map(([k, x]) => [k, withoutPermissions(x)]),
  );
}

/** A SAML provider and an OpenAPI spec (text, so its raw content exists) that fullSandbox creates. */
const SSO_OPENAPI_IDS = { samlProviderId: 'saml-1', specSlug: 'pets', versionId: 'oasv-1' };

/** A demo sandbox with both tokens, a full published site, a SAML provider and an OpenAPI spec (built with the admin token). */
async function fullSandbox(): Promise<{ c: Awaited<ReturnType<typeof sandbox>>; f: ContractSite }> {
  const c = await sandbox({ readToken: READ });
  const f = await buildContractSite(c.call, (id) => {
    const site = sites(c.sb.store).get(id);
    if (site) sites(c.sb.store).put({ ...site, published: true });
  });
  await c.call('POST', `${ORG}/sites/${f.site}/redirects`, {
    source: REDIRECT_SOURCE,
    destination: { kind: 'external', url: 'https://acme.test/new' },
  });
  const saml = await c.call('POST', `${ORG}/saml`, { label: 'Okta' });
  const spec = await c.call('POST', `${ORG}/openapi`, { slug: 'pets', source: { text: '{"openapi": "3.1.0"}' } });
  expect({ samlProviderId: saml.body.id, specSlug: spec.body.slug, versionId: spec.body.lastVersion }).toEqual(
    SSO_OPENAPI_IDS,
  );
  return { c, f };
}

describe('read-only token: reads', () => {
  it('every GET route answers as for the admin token (permissions flags aside)', async () => {
    const { c, f } = await fullSandbox();
    // The audit events are for organization admins only (the spec's 403; test/sandbox/contract-audit.test.ts).
    const gets = allRoutes().filter(
      (r) => r.method === 'GET' && r.pattern !== '/v1/user' && r.pattern !== '/v1/orgs/:organizationId/audit-events',
    );
    expect(gets.length).toBeGreaterThan(20);
    for (const route of gets) {
      const path = concretePath(route.pattern, f);
      const admin = await c.call('GET', path);
      const read = await c.call('GET', path, undefined, { token: READ });
      expect(admin.status, `GET ${path}`).toBe(200);
      expect(read.status, `GET ${path}`).toBe(200);
      expect(withoutPermissions(read.body), `GET ${path}`).toEqual(withoutPermissions(admin.body));
    }
  });

  it('pages of a list are the same for both tokens', async () => {
    const { call } = await sandbox({ readToken: READ });
    const admin = await call('GET', `${ORG}/members?limit=3`);
    const read = await call('GET', `${ORG}/members?limit=3`, undefined, { token: READ });
    expect(read.body).toEqual(admin.body);
    const next = await call(
      'GET',
      `${ORG}/members?limit=3&page=${encodeURIComponent(read.body.next.page)}`,
      undefined,
      { token: READ },
    );
    expect(next.status).toBe(200);
    expect(next.body.items).toHaveLength(3);
  });

  it('permissions flags tell the read-only user it may only view', async () => {
    const { call } = await sandbox({ readToken: READ });
    expect((await call('GET', ORG)).body.permissions.admin).toBe(true);
    const org = (await call('GET', ORG, undefined, { token: READ })).body;
    expect(org.permissions.admin).toBe(false);
    expect(org.permissions.view).toBe(true);
  });

  it('GET /user names the read-only user; the admin token still gets its admin', async () => {
    const { call } = await sandbox({ readToken: READ });
    const me = await call('GET', '/user', undefined, { token: READ });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ object: 'user', id: READ_TOKEN_USER_ID, email: READ_TOKEN_USER_EMAIL });
    expect((await call('GET', '/user')).body.id).toBe('u-ada');
  });

  it.each(['demo', 'empty'] as const)(
    'the %s seed makes the read-only user a read member of every organization',
    async (seed) => {
      const { sb, call } = await sandbox({ seed, readToken: READ });
      expect(sb.readToken).toBe(READ);
      const list = await call('GET', '/orgs', undefined, { token: READ });
      expect(list.body.items.map((o: Json) => o.id)).toEqual(
        orgs(sb.store)
          .all()
          .map((o) => o.id),
      );
      for (const org of orgs(sb.store).all()) {
        const m = await call('GET', `/orgs/${org.id}/members/${READ_TOKEN_USER_ID}`);
        expect(m.status).toBe(200);
        expect(m.body.role).toBe('read');
      }
    },
  );
});

describe('read-only token: writes', () => {
  // Real writes with valid bodies: the admin token's answer proves each would change the state.
  const WRITES: [method: string, path: string, body?: Json][] = [
    ['PUT', `${ORG}/teams`, { title: 'Docs Ops', members: ['u-bob'] }],
    ['PATCH', `${ORG}/teams/team-platform`, { title: 'Platform Team' }],
    ['DELETE', `${ORG}/teams/team-support`],
    ['PATCH', `${ORG}/members/u-frank`, { role: 'comment' }],
    ['DELETE', `${ORG}/members/u-ivan`],
    ['POST', `${ORG}/spaces`, { title: 'New space' }],
    ['POST', `${ORG}/sites`, { title: 'Docs', spaces: ['sp-runbooks'] }],
    ['PATCH', ORG, { title: 'Acme' }],
  ];

  it.each(WRITES)('%s %s is 403 with the error body and changes nothing', async (method, path, body) => {
    const { sb, call } = await sandbox({ readToken: READ });
    const before = sb.store.snapshot();
    const refused = await call(method, path, body, { token: READ });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 403, message: expect.stringContaining('read-only') } });
    expect(sb.store.snapshot()).toEqual(before);
    const allowed = await call(method, path, body);
    expect(allowed.status, JSON.stringify(allowed.body)).toBeLessThan(300);
    expect(sb.store.snapshot()).not.toEqual(before);
  });

  it('every write route is refused with 403 (before its body is validated) and the state stays the same', async () => {
    const { c, f } = await fullSandbox();
    const before = c.sb.store.snapshot();
    const writes = allRoutes().filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(20);
    c.sb.resetStats();
    for (const route of writes) {
      const path = concretePath(route.pattern, f);
      const res = await c.call(route.method, path, { bogus: true }, { token: READ });
      expect(res.status, `${route.method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe(403);
    }
    expect(c.sb.store.snapshot()).toEqual(before);
    // Refused requests are counted like any other.
    const stats = c.sb.stats();
    expect(stats.total).toBe(writes.length);
    expect(stats.byStatus).toEqual({ 403: writes.length });
  });

  it('routing errors keep their status for the read token: unknown path 404, wrong method 405', async () => {
    const { call } = await sandbox({ readToken: READ });
    expect((await call('POST', '/nowhere', {}, { token: READ })).status).toBe(404);
    expect((await call('POST', '/user', {}, { token: READ })).status).toBe(405);
  });
});

describe('read-only token: authentication', () => {
  it('an unknown or missing token is still 401; without readToken the read token is unknown', async () => {
    const { call } = await sandbox({ readToken: READ });
    expect((await call('GET', '/orgs', undefined, { token: 'nope' })).status).toBe(401);
    expect((await call('PUT', `${ORG}/teams`, { title: 'X' }, { token: 'nope' })).status).toBe(401);
    expect((await call('GET', '/orgs', undefined, { token: null })).status).toBe(401);
    const plain = await sandbox();
    expect(plain.sb.readToken).toBeUndefined();
    expect(users(plain.sb.store).has(READ_TOKEN_USER_ID)).toBe(false);
    expect((await plain.call('GET', '/orgs', undefined, { token: READ })).status).toBe(401);
  });

  it('refuses a read token that is empty or equal to the admin token', async () => {
    await expect(startSandbox({ readToken: '' })).rejects.toThrow(/readToken/);
    await expect(startSandbox({ token: 't', readToken: 't' })).rejects.toThrow(/differ/);
  });
});

describe('read-only token: state', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a state file without the read-only user gets it (read member of the orgs the file holds), and keeps it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docops-read-token-'));
    dirs.push(dir);
    const file = join(dir, 'state.json');
    const first = await startSandbox({ stateFile: file, seed: 'empty' });
    await first.close();
    expect(readFileSync(file, 'utf8')).not.toContain(READ_TOKEN_USER_ID);
    const second = await sandbox({ stateFile: file, readToken: READ });
    expect((await second.call('GET', '/user', undefined, { token: READ })).body.id).toBe(READ_TOKEN_USER_ID);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Json;
    expect(saved.tables.members.some((m: Json) => m.userId === READ_TOKEN_USER_ID && m.role === 'read')).toBe(true);
  });

  it('PUT /_sandbox/state keeps the read-only user when the snapshot lacks it', async () => {
    const { sb, call } = await sandbox({ readToken: READ });
    const plain = await startSandbox({ seed: 'empty' });
    const snapshot = plain.store.snapshot();
    await plain.close();
    expect((await request(sb, 'PUT', '/_sandbox/state', snapshot)).status).toBe(204);
    expect(members(sb.store).get(memberKey('org-demo', READ_TOKEN_USER_ID))?.role).toBe('read');
    expect((await call('GET', '/user', undefined, { token: READ })).status).toBe(200);
  });
});

describe('docops sandbox --read-token', () => {
  it('prints the read-only token and serves it', async () => {
    const out = new PassThrough();
    let text = '';
    const printed = new Promise<string>((resolve) =>
      out.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const m = /base URL: (\S+)[\s\S]*Press Ctrl\+C/.exec(text);
        if (m?.[1]) resolve(m[1]);
      }),
    );
    const done = sandboxCommand(['--port', '0', '--read-token', 'cli-read'], {
      stdout: out,
      stderr: new PassThrough(),
    });
    const url = await printed;
    expect(text).toContain('read-only token: cli-read');
    const res = await fetch(`${url}${ORG}/teams`, {
      method: 'PUT',
      headers: { authorization: 'Bearer cli-read', 'content-type': 'application/json' },
      body: '{"title":"X"}',
    });
    expect(res.status).toBe(403);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await done).toBe(0);
  });

  it.each([
    [['--read-token', ''], /--read-token must not be empty/],
    [['--read-token', 'sandbox-token'], /--read-token must differ from --token/],
    [['--token', 'a', '--read-token', 'a'], /--read-token must differ from --token/],
  ])('rejects %j', async (argv, message) => {
    let err = '';
    const stderr = new PassThrough().on('data', (c: Buffer) => void (err += c.toString()));
    expect(await sandboxCommand(argv, { stdout: new PassThrough(), stderr })).toBe(1);
    expect(err).toMatch(message);
  });
});
