/**
 * Content permissions of spaces, collections and sites over HTTP (the official spec's …/permissions operations):
 * bulk grants, lists with the role, role changes, removal, refusals, the Member / Team counts, the member's
 * space list, and the cascades that drop grants when what they name goes away.
 */
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '@docops/sandbox';
import { grants } from '../../packages/sandbox/src/permission-records.js';
import { memberKey, members, orgs, teams } from '../../packages/sandbox/src/records.js';
import { DAY, manualClock, sandbox, type Client, type Json } from './helpers.js';
import { listAll, newSite } from './site-fixture.js';

const ORG = '/orgs/org-demo';

/** The three kinds of object that carry permissions, each made fresh for a test; `path` is `…/permissions`. */
const TARGETS: { name: string; make(call: Client['call']): Promise<string>; nullRole: boolean }[] = [
  { name: 'space', make: async () => '/spaces/sp-api/permissions', nullRole: false },
  { name: 'collection', make: async () => '/collections/col-product/permissions', nullRole: false },
  {
    name: 'site',
    make: async (call) => `${(await newSite(call, { title: 'Help' })).path}/permissions`,
    nullRole: true,
  },
];

const teamRoles = async (call: Client['call'], base: string): Promise<string[]> =>
  (await listAll(call, `${base}/teams`)).map((x) => `${x.team.id}:${x.permission}`);
const userRoles = async (call: Client['call'], base: string): Promise<string[]> =>
  (await listAll(call, `${base}/users`)).map((x) => `${x.user.id}:${x.permission}`);

/** A second organization the token user administers, with one team. */
function addOrg(sb: RunningSandbox, id: string): void {
  orgs(sb.store).put({
    id,
    title: 'Other',
    createdAt: '2024-01-01T00:00:00.000Z',
    emailDomains: [],
    type: 'business',
    defaultRole: null,
    sso: false,
    ai: false,
    inviteLinks: false,
    plan: 'free_2024',
  });
  members(sb.store).put({
    id: memberKey(id, 'u-ada'),
    orgId: id,
    userId: 'u-ada',
    role: 'admin',
    disabled: false,
    joinedAt: '2024-01-01T00:00:00.000Z',
    sso: false,
  });
  teams(sb.store).put({ id: 'team-elsewhere', orgId: id, title: 'Elsewhere', createdAt: '2024-01-01T00:00:00.000Z' });
}

describe.each(TARGETS)('permissions on a $name', ({ make, nullRole }) => {
  it('grants in bulk (204), lists teams and users with their role, changes one (204), removes one (205, then 204)', async () => {
    const { call } = await sandbox();
    const base = await make(call);
    expect(await teamRoles(call, base)).toEqual([]);
    const grant = await call('POST', base, {
      role: 'edit',
      teams: ['team-writers', 'team-platform', 'team-writers'],
      users: ['u-bob'],
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(204);
    expect(grant.body).toBeUndefined();
    expect(await teamRoles(call, base)).toEqual(['team-writers:edit', 'team-platform:edit']);
    expect(await userRoles(call, base)).toEqual(['u-bob:edit']);
    const listed = (await call('GET', `${base}/teams`)).body.items[0];
    expect(listed.team).toMatchObject({ object: 'team', id: 'team-writers', title: 'Writers', members: 3 });
    expect((await call('GET', `${base}/users`)).body.items[0].user).toMatchObject({
      object: 'user',
      id: 'u-bob',
      email: 'bob@acme.test',
    });

    // Granting again changes the role in place; a new principal goes to the end.
    expect((await call('POST', base, { role: 'read', teams: ['team-writers', 'team-support'] })).status).toBe(204);
    expect(await teamRoles(call, base)).toEqual(['team-writers:read', 'team-platform:edit', 'team-support:read']);

    expect((await call('PATCH', `${base}/teams/team-platform`, { role: 'admin' })).status).toBe(204);
    expect((await call('PATCH', `${base}/users/u-bob`, { role: 'comment' })).status).toBe(204);
    expect((await call('PATCH', `${base}/users/u-bob`, {})).status).toBe(204); // role is optional: nothing changes
    expect(await teamRoles(call, base)).toEqual(['team-writers:read', 'team-platform:admin', 'team-support:read']);
    expect(await userRoles(call, base)).toEqual(['u-bob:comment']);

    expect((await call('DELETE', `${base}/teams/team-writers`)).status).toBe(205);
    expect((await call('DELETE', `${base}/teams/team-writers`)).status).toBe(204);
    expect((await call('DELETE', `${base}/users/u-bob`)).status).toBe(205);
    expect((await call('DELETE', `${base}/users/u-carol`)).status).toBe(204); // never granted
    expect((await call('DELETE', `${base}/teams/team-nope`)).status).toBe(204);
    expect(await teamRoles(call, base)).toEqual(['team-platform:admin', 'team-support:read']);
    expect(await userRoles(call, base)).toEqual([]);
  });

  it('refuses bad bodies (400) and unknown teams or members (404), changing nothing', async () => {
    const { call, sb } = await sandbox();
    addOrg(sb, 'org-other');
    const base = await make(call);
    expect((await call('POST', base, { role: 'edit', users: ['u-erin'] })).status).toBe(204);
    const bad: [Json, string][] = [
      [{ teams: ['team-writers'] }, 'body.role: is required'],
      [{ role: 'owner', teams: ['team-writers'] }, 'body.role: must be one of'],
      [{ role: 'edit' }, 'body: must have at least one of teams, users'],
      [{ role: 'edit', teams: [] }, 'body.teams: must have at least 1 item'],
      [{ role: 'edit', users: [''] }, 'body.users[0]'],
      [{ role: 'edit', teams: 'team-writers' }, 'body.teams: must be an array'],
      [{ role: 'edit', teams: ['team-writers'], everyone: true }, 'body.everyone: unknown field'],
    ];
    for (const [body, message] of bad) {
      const r = await call('POST', base, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toEqual({ error: { code: 400, message: expect.stringContaining(message) } });
    }
    const unknown: [Json, string][] = [
      [{ role: 'edit', teams: ['team-writers', 'team-nope'] }, 'team "team-nope" not found'],
      [{ role: 'edit', teams: ['team-elsewhere'] }, 'team "team-elsewhere" not found in organization "org-demo"'],
      [{ role: 'edit', users: ['u-bob', 'u-nobody'] }, 'member "u-nobody" not found'],
    ];
    for (const [body, message] of unknown) {
      const r = await call('POST', base, body);
      expect(r.status, JSON.stringify(body)).toBe(404);
      expect(r.body.error.message).toContain(message);
    }
    // PATCH: bad role 400; unknown principal or one without a grant 404.
    expect((await call('PATCH', `${base}/users/u-erin`, { role: 'boss' })).status).toBe(400);
    expect((await call('PATCH', `${base}/users/u-erin`, { role: 'read', extra: 1 })).status).toBe(400);
    if (nullRole) expect((await call('PATCH', `${base}/users/u-erin`, { role: null })).status).toBe(400); // the site PATCH takes MemberRole
    expect((await call('PATCH', `${base}/users/u-bob`, { role: 'read' })).status).toBe(404);
    expect((await call('PATCH', `${base}/teams/team-nope`, { role: 'read' })).status).toBe(404);
    expect((await call('PATCH', `${base}/teams/team-writers`, { role: 'read' })).status).toBe(404);
    expect((await call('DELETE', `${base}/users/u-erin`, { role: 'read' })).status).toBe(400); // DELETE takes no body
    expect(await teamRoles(call, base)).toEqual([]);
    expect(await userRoles(call, base)).toEqual(['u-erin:edit']);
  });

  it('answers 404 for an object that does not exist, on every operation', async () => {
    const { call } = await sandbox();
    const base = (await make(call)).replace(/(sp-api|col-product|site-\d+)/, 'nope');
    const ops: [string, string, Json?][] = [
      ['POST', base, { role: 'read', users: ['u-bob'] }],
      ['GET', `${base}/teams`],
      ['GET', `${base}/users`],
      ['PATCH', `${base}/teams/team-writers`, { role: 'read' }],
      ['PATCH', `${base}/users/u-bob`, { role: 'read' }],
      ['DELETE', `${base}/teams/team-writers`],
      ['DELETE', `${base}/users/u-bob`],
    ];
    for (const [method, path, body] of ops)
      expect((await call(method, path, body)).status, `${method} ${path}`).toBe(404);
  });

  it('pages its lists (limit, next.page)', async () => {
    const { call } = await sandbox();
    const base = await make(call);
    expect((await call('POST', base, { role: 'read', users: ['u-bob', 'u-carol', 'u-dan'] })).status).toBe(204);
    const first = await call('GET', `${base}/users?limit=2`);
    expect(first.body.count).toBe(2);
    const second = await call('GET', `${base}/users?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
    expect([...first.body.items, ...second.body.items].map((x: Json) => x.user.id)).toEqual([
      'u-bob',
      'u-carol',
      'u-dan',
    ]);
    expect(second.body.next).toBeUndefined();
    expect((await call('GET', `${base}/users?limit=2000`)).status).toBe(400);
  });
});

describe('null roles', () => {
  it('a site stores a null override and lists it', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    expect(
      (await call('POST', `${site.path}/permissions`, { role: null, teams: ['team-support'], users: ['u-frank'] }))
        .status,
    ).toBe(204);
    expect(await teamRoles(call, `${site.path}/permissions`)).toEqual(['team-support:null']);
    expect(await userRoles(call, `${site.path}/permissions`)).toEqual(['u-frank:null']);
    expect((await call('PATCH', `${site.path}/permissions/users/u-frank`, { role: 'read' })).status).toBe(204);
    expect(await userRoles(call, `${site.path}/permissions`)).toEqual(['u-frank:read']);
  });

  // The spec's bodies take MemberRoleOrGuest on every space and collection grant route (POST and both PATCHes);
  // their lists answer a non-null MemberRole, so a guest (null) grant is no grant: the principal loses its access.
  it.each(['/spaces/sp-api/permissions', '/collections/col-internal/permissions'])(
    '%s: null is accepted by POST and both PATCHes and takes the grant away',
    async (base) => {
      const { call } = await sandbox();
      expect(
        (
          await call('POST', base, {
            role: 'edit',
            teams: ['team-support', 'team-writers'],
            users: ['u-frank', 'u-bob'],
          })
        ).status,
      ).toBe(204);
      expect(
        (await call('POST', base, { role: null, teams: ['team-support'], users: ['u-frank', 'u-erin'] })).status,
      ).toBe(204);
      expect(await teamRoles(call, base)).toEqual(['team-writers:edit']);
      expect(await userRoles(call, base)).toEqual(['u-bob:edit']);
      expect((await call('PATCH', `${base}/teams/team-writers`, { role: null })).status).toBe(204);
      expect((await call('PATCH', `${base}/users/u-bob`, { role: null })).status).toBe(204);
      expect(await teamRoles(call, base)).toEqual([]);
      expect(await userRoles(call, base)).toEqual([]);
      // Like any PATCH, one on a principal without a grant is a 404; unknown ids in a POST stay 404.
      expect((await call('PATCH', `${base}/users/u-bob`, { role: null })).status).toBe(404);
      expect((await call('POST', base, { role: null, users: ['u-nobody'] })).status).toBe(404);
    },
  );
});

describe('grants and the Member / Team objects', () => {
  it('Member spaces and sites and Team spaces count direct grants on live objects; GET …/members/{id}/spaces lists them', async () => {
    const { call } = await sandbox();
    const member = async (id: string): Promise<Json> => (await call('GET', `${ORG}/members/${id}`)).body;
    const team = async (id: string): Promise<Json> => (await call('GET', `${ORG}/teams/${id}`)).body;
    expect(await member('u-bob')).toMatchObject({ spaces: 0, sites: 0 });
    await call('POST', '/spaces/sp-api/permissions', { role: 'edit', users: ['u-bob'], teams: ['team-writers'] });
    await call('POST', '/spaces/sp-runbooks/permissions', { role: 'read', users: ['u-bob'] });
    await call('POST', '/collections/col-product/permissions', {
      role: 'admin',
      users: ['u-bob'],
      teams: ['team-writers'],
    });
    const site = await newSite(call, { title: 'Help' });
    await call('POST', `${site.path}/permissions`, { role: 'read', users: ['u-bob'] });
    const other = await newSite(call, { title: 'Other' });
    await call('POST', `${other.path}/permissions`, { role: null, users: ['u-bob'] }); // no access: not counted
    expect(await member('u-bob')).toMatchObject({ spaces: 2, sites: 1 });
    expect(await team('team-writers')).toMatchObject({ spaces: 1 });
    expect((await call('GET', `${ORG}/teams`)).body.items.find((t: Json) => t.id === 'team-writers').spaces).toBe(1);
    expect((await call('GET', `${ORG}/members?search=bob`)).body.items[0]).toMatchObject({ spaces: 2 });

    const spacesOf = async (query = ''): Promise<string[]> =>
      (await listAll(call, `${ORG}/members/u-bob/spaces${query}`)).map((x) => `${x.space.id}:${x.permission}`);
    expect(await spacesOf()).toEqual(['sp-runbooks:read', 'sp-api:edit']); // newest first (order=desc)
    expect(await spacesOf('?order=asc')).toEqual(['sp-api:edit', 'sp-runbooks:read']);
    expect((await call('GET', `${ORG}/members/u-bob/spaces?order=up`)).status).toBe(400);
    expect((await call('GET', `${ORG}/members/u-nobody/spaces`)).status).toBe(404);
    expect((await call('GET', `${ORG}/members/u-bob/spaces`)).body.items[0].space).toMatchObject({
      object: 'space',
      id: 'sp-runbooks',
    });

    // A deleted space is neither counted nor listed, nor can its permissions be read; restoring brings them back.
    expect((await call('DELETE', '/spaces/sp-runbooks')).status).toBe(205);
    expect(await member('u-bob')).toMatchObject({ spaces: 1 });
    expect(await spacesOf()).toEqual(['sp-api:edit']);
    expect((await call('GET', '/spaces/sp-runbooks/permissions/users')).status).toBe(404);
    expect((await call('POST', '/spaces/sp-runbooks/restore')).status).toBe(200);
    expect(await userRoles(call, '/spaces/sp-runbooks/permissions')).toEqual(['u-bob:read']);
    expect(await member('u-bob')).toMatchObject({ spaces: 2 });
  });
});

describe('grants through teams', () => {
  it("a member's spaces list and the Member spaces / sites counts include the grants of their teams, at the highest role", async () => {
    const { call } = await sandbox();
    const member = async (id: string): Promise<Json> => (await call('GET', `${ORG}/members/${id}`)).body;
    const spacesOf = async (id: string, query = '?order=asc'): Promise<string[]> =>
      (await listAll(call, `${ORG}/members/${id}/spaces${query}`)).map((x) => `${x.space.id}:${x.permission}`);
    // u-judy is in team-writers; u-heidi too (its owner).
    expect((await call('POST', '/spaces/sp-api/permissions', { role: 'edit', teams: ['team-writers'] })).status).toBe(
      204,
    );
    expect((await call('POST', '/spaces/sp-runbooks/permissions', { role: 'read', users: ['u-judy'] })).status).toBe(
      204,
    );
    expect(
      (await call('POST', '/spaces/sp-runbooks/permissions', { role: 'admin', teams: ['team-writers'] })).status,
    ).toBe(204);
    expect(
      (await call('POST', '/spaces/sp-changelog/permissions', { role: 'comment', users: ['u-judy'] })).status,
    ).toBe(204);
    expect(
      (await call('POST', '/spaces/sp-changelog/permissions', { role: 'read', teams: ['team-writers'] })).status,
    ).toBe(204);
    expect(await spacesOf('u-judy')).toEqual(['sp-api:edit', 'sp-runbooks:admin', 'sp-changelog:comment']);
    expect(await spacesOf('u-heidi')).toEqual(['sp-api:edit', 'sp-runbooks:admin', 'sp-changelog:read']);
    expect(await spacesOf('u-bob')).toEqual([]);
    expect(await member('u-judy')).toMatchObject({ spaces: 3 });
    expect(await member('u-heidi')).toMatchObject({ spaces: 3 });

    const site = await newSite(call, { title: 'Help' });
    expect((await call('POST', `${site.path}/permissions`, { role: 'read', teams: ['team-writers'] })).status).toBe(
      204,
    );
    expect(await member('u-heidi')).toMatchObject({ sites: 1 });
    // A user's own null override on a site takes precedence over the grants of their teams.
    expect((await call('POST', `${site.path}/permissions`, { role: null, users: ['u-heidi'] })).status).toBe(204);
    expect(await member('u-heidi')).toMatchObject({ sites: 0 });
    expect(await member('u-judy')).toMatchObject({ sites: 1 });

    // Leaving the team takes its grants away from the member.
    expect((await call('DELETE', `${ORG}/teams/team-writers/members/u-judy`)).status).toBe(204);
    expect(await spacesOf('u-judy')).toEqual(['sp-runbooks:read', 'sp-changelog:comment']);
    expect(await member('u-judy')).toMatchObject({ spaces: 2, sites: 0 });
  });
});

describe('cascades: a grant goes with what it names', () => {
  const grantRows = (sb: RunningSandbox): string[] =>
    grants(sb.store)
      .all()
      .map((g) => g.id);

  it('deleting a team or removing a member drops their grants everywhere', async () => {
    const { call, sb } = await sandbox();
    const site = await newSite(call, { title: 'Help' });
    for (const base of [
      '/spaces/sp-api/permissions',
      '/collections/col-internal/permissions',
      `${site.path}/permissions`,
    ]) {
      expect(
        (
          await call('POST', base, {
            role: 'edit',
            teams: ['team-writers', 'team-support'],
            users: ['u-judy', 'u-ivan'],
          })
        ).status,
      ).toBe(204);
    }
    expect(grantRows(sb)).toHaveLength(12);
    expect((await call('DELETE', `${ORG}/teams/team-writers`)).status).toBe(204);
    expect((await call('DELETE', `${ORG}/members/u-judy`)).status).toBe(204);
    expect(grantRows(sb).filter((id) => /team-writers|u-judy/.test(id))).toEqual([]);
    expect(grantRows(sb)).toHaveLength(6);
    expect(await teamRoles(call, '/spaces/sp-api/permissions')).toEqual(['team-support:edit']);
    expect(await userRoles(call, `${site.path}/permissions`)).toEqual(['u-ivan:edit']);
  });

  it('deleting a collection or a site drops the grants on it; a deleted space keeps its grants until it is purged', async () => {
    const clock = manualClock();
    const { call, sb } = await sandbox({ now: clock.now });
    const site = await newSite(call, { title: 'Help' });
    const all = { role: 'read', teams: ['team-support'] };
    for (const base of [
      '/spaces/sp-getting-started/permissions',
      '/collections/col-product/permissions',
      `${site.path}/permissions`,
    ]) {
      expect((await call('POST', base, all)).status).toBe(204);
    }
    expect((await call('DELETE', site.path)).status).toBe(205);
    expect(grantRows(sb).some((id) => id.startsWith('site:'))).toBe(false);
    // The collection goes at once; sp-getting-started (inside it) is only soft-deleted and keeps its grant.
    expect((await call('DELETE', '/collections/col-product')).status).toBe(205);
    expect(grantRows(sb)).toEqual(['space:sp-getting-started/team:team-support']);
    expect((await call('GET', `${ORG}/teams/team-support`)).body.spaces).toBe(0);
    clock.advance(8 * DAY);
    expect((await call('GET', '/spaces/sp-getting-started')).status).toBe(404); // purged now
    expect(grantRows(sb)).toEqual([]);
  });

  it('transferring a space or a collection to another organization drops its grants (they name the old organization)', async () => {
    const { call, sb } = await sandbox();
    addOrg(sb, 'org-other');
    for (const base of [
      '/spaces/sp-changelog/permissions',
      '/collections/col-product/permissions',
      '/spaces/sp-api/permissions',
      '/spaces/sp-runbooks/permissions',
    ]) {
      expect((await call('POST', base, { role: 'edit', teams: ['team-platform'], users: ['u-bob'] })).status).toBe(204);
    }
    expect((await call('POST', '/spaces/sp-changelog/transfer', { organization: 'org-other' })).status).toBe(200);
    expect((await call('POST', '/collections/col-product/transfer', { organization: 'org-other' })).status).toBe(200);
    expect(grantRows(sb).map((id) => id.split('/')[0])).toEqual(['space:sp-runbooks', 'space:sp-runbooks']);
    expect(await teamRoles(call, '/spaces/sp-changelog/permissions')).toEqual([]);
  });
});
