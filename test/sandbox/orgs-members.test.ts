import { describe, expect, it } from 'vitest';
import { sandbox, type Json } from './helpers.js';

const ORG = '/orgs/org-demo';

describe('organizations', () => {
  it("lists the token user's organizations and gets one", async () => {
    const { call } = await sandbox();
    const list = await call('GET', '/orgs');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect(list.body.next).toBeUndefined();
    const org = list.body.items[0];
    expect(org).toMatchObject({
      object: 'organization',
      id: 'org-demo',
      title: 'Acme Docs',
      emailDomains: ['acme.test'],
      hostname: 'acme-docs',
      defaultRole: 'read',
      inviteLinks: true,
      sso: false,
      ai: true,
      type: 'business',
      plan: 'enterprise_2024',
      auditLogs: true,
    });
    const one = await call('GET', ORG);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(org);
    expect((await call('GET', '/orgs/org-nope')).status).toBe(404);
  });

  it('patches every writable field; logo reads back as urls.logo; null clears', async () => {
    const { call } = await sandbox();
    const site = (await call('POST', `${ORG}/sites`, { title: 'Help' })).body.id;
    const patch = {
      title: 'Acme Documentation',
      emailDomains: ['acme.test', 'acme.example'],
      hostname: 'acme',
      defaultRole: null,
      defaultContent: { type: 'site', site },
      logo: 'https://cdn.acme.test/logo.png',
      sso: true,
      ai: false,
      inviteLinks: false,
    };
    const res = await call('PATCH', ORG, patch);
    expect(res.status).toBe(200);
    const { logo, ...rest } = patch;
    expect(res.body).toMatchObject({ ...rest, urls: { logo } });
    expect(res.body).not.toHaveProperty('logo');
    expect((await call('GET', ORG)).body).toEqual(res.body);
    const cleared = await call('PATCH', ORG, { logo: null, defaultContent: null });
    expect(cleared.body.urls.logo).toBeUndefined();
    expect(cleared.body.defaultContent).toBeUndefined();
    expect(cleared.body.title).toBe('Acme Documentation');
  });

  it('refuses a default content naming no site of the organization (400, nothing changed), as ids in other bodies', async () => {
    const { call } = await sandbox();
    const before = (await call('GET', ORG)).body;
    const res = await call('PATCH', ORG, { title: 'Renamed', defaultContent: { type: 'site', site: 'site-nope' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 400,
      message: 'body.defaultContent.site: site "site-nope" not found in organization "org-demo"',
    });
    expect((await call('GET', ORG)).body).toEqual(before);
    // A deleted site is no site either.
    const site = (await call('POST', `${ORG}/sites`, { title: 'Help' })).body.id;
    expect((await call('DELETE', `${ORG}/sites/${site}`)).status).toBe(205);
    expect((await call('PATCH', ORG, { defaultContent: { type: 'site', site } })).status).toBe(400);
  });

  it("GET /user answers the token's user", async () => {
    const { call } = await sandbox();
    const res = await call('GET', '/user');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'user', id: 'u-ada', displayName: 'Ada Admin', email: 'ada@acme.test' });
    expect((await call('GET', '/users/u-bob')).body.email).toBe('bob@acme.test');
    expect((await call('GET', '/users/u-nobody')).status).toBe(404);
  });
});

describe('members', () => {
  const ids = (r: { body: Json }): string[] => r.body.items.map((m: Json) => m.id);

  it('lists the 10 demo members, newest first by default, with their roles', async () => {
    const { call } = await sandbox();
    const res = await call('GET', `${ORG}/members`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(10);
    expect(ids(res)).toEqual([
      'u-judy',
      'u-ivan',
      'u-heidi',
      'u-grace',
      'u-frank',
      'u-erin',
      'u-dan',
      'u-carol',
      'u-bob',
      'u-ada',
    ]);
    const roles = Object.fromEntries(res.body.items.map((m: Json) => [m.user.email, m.role]));
    expect(roles).toEqual({
      'ada@acme.test': 'admin',
      'bob@acme.test': 'edit',
      'carol@acme.test': 'create',
      'dan@acme.test': 'review',
      'erin@acme.test': 'comment',
      'frank@acme.test': 'read',
      'grace@acme.test': 'admin',
      'heidi@acme.test': 'edit',
      'ivan@acme.test': 'read',
      'judy@acme.test': 'edit',
    });
    expect(res.body.items.find((m: Json) => m.id === 'u-ada').teams).toBe(1);
  });

  it('filters by role (and guest), search, and sorts by name / lastSeenAt in both orders', async () => {
    const { call } = await sandbox();
    expect(ids(await call('GET', `${ORG}/members?role=edit&order=asc`))).toEqual(['u-bob', 'u-heidi', 'u-judy']);
    expect(ids(await call('GET', `${ORG}/members?search=GRA`))).toEqual(['u-grace']);
    expect(ids(await call('GET', `${ORG}/members?search=acme.test&role=admin&order=asc`))).toEqual([
      'u-ada',
      'u-grace',
    ]);
    expect(ids(await call('GET', `${ORG}/members?role=guest`))).toEqual([]);
    await call('PATCH', `${ORG}/members/u-dan`, { role: null });
    expect(ids(await call('GET', `${ORG}/members?role=guest`))).toEqual(['u-dan']);
    expect(ids(await call('GET', `${ORG}/members?sort=name&order=asc`)).slice(0, 3)).toEqual([
      'u-ada',
      'u-bob',
      'u-carol',
    ]);
    const seen = await call('GET', `${ORG}/members?sort=lastSeenAt`);
    expect(ids(seen)).toEqual(['u-ada', 'u-grace', 'u-bob', 'u-carol', 'u-heidi', 'u-judy', 'u-erin']);
    expect((await call('GET', `${ORG}/members?sort=email`)).status).toBe(400);
    expect((await call('GET', `${ORG}/members?order=up`)).status).toBe(400);
    expect((await call('GET', `${ORG}/members?role=owner`)).status).toBe(400);
  });

  it('gets, patches the role, marks SSO and removes a member (204, also when already gone)', async () => {
    const { call } = await sandbox();
    const one = await call('GET', `${ORG}/members/u-bob`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      object: 'member',
      id: 'u-bob',
      role: 'edit',
      sso: false,
      disabled: false,
      user: { id: 'u-bob' },
    });
    const patched = await call('PATCH', `${ORG}/members/u-bob`, { role: 'review' });
    expect(patched.status).toBe(200);
    expect(patched.body.role).toBe('review');
    const sso = await call('POST', `${ORG}/members/u-bob/sso`);
    expect(sso.status).toBe(200);
    expect(sso.body.sso).toBe(true);
    expect((await call('DELETE', `${ORG}/members/u-bob`)).status).toBe(204);
    expect((await call('GET', `${ORG}/members/u-bob`)).status).toBe(404);
    expect((await call('DELETE', `${ORG}/members/u-bob`)).status).toBe(204);
    // Leaving the organization also leaves its teams.
    const platform = await call('GET', `${ORG}/teams/team-platform/members`);
    expect(platform.body.items.map((x: Json) => x.organization.id)).toEqual(['u-ada', 'u-carol']);
    expect((await call('PATCH', `${ORG}/members/u-bob`, { role: 'read' })).status).toBe(404);
    expect((await call('DELETE', `/orgs/org-nope/members/u-bob`)).status).toBe(404);
  });
});

describe('invites', () => {
  it('adds members at once, with per-address and default roles, creating users named after the address', async () => {
    const { call } = await sandbox();
    const res = await call('POST', `${ORG}/invites`, {
      emails: [
        'new.person@acme.test',
        { email: 'lead@acme.test', role: 'admin' },
        'bob@acme.test',
        'NEW.person@acme.test',
      ],
      role: 'comment',
    });
    expect(res.status).toBe(200);
    expect(res.body.invited).toBe(2);
    expect(res.body.users).toHaveLength(2);
    const [first, second] = res.body.users as string[];
    const a = await call('GET', `${ORG}/members/${first}`);
    expect(a.body).toMatchObject({
      role: 'comment',
      sso: false,
      user: { email: 'new.person@acme.test', displayName: 'New Person' },
    });
    expect((await call('GET', `${ORG}/members/${second}`)).body.role).toBe('admin');
    expect((await call('GET', `${ORG}/members`)).body.count).toBe(12);
  });

  it('uses the organization default role and the sso flag; inviting again adds nobody', async () => {
    const { call } = await sandbox();
    const res = await call('POST', `${ORG}/invites`, { emails: ['x@acme.test'], sso: true });
    const m = await call('GET', `${ORG}/members/${res.body.users[0]}`);
    expect(m.body).toMatchObject({ role: 'read', sso: true });
    const again = await call('POST', `${ORG}/invites`, { emails: ['x@acme.test'] });
    expect(again.body).toEqual({ users: [], invited: 0 });
  });

  it('rejects bad addresses and roles', async () => {
    const { call } = await sandbox();
    const bad = await call('POST', `${ORG}/invites`, { emails: ['not-an-email'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.emails[0]');
    expect((await call('POST', `${ORG}/invites`, { emails: [{ email: 'a@b.test' }] })).status).toBe(400);
    expect((await call('POST', `${ORG}/invites`, { emails: ['a@b.test'], role: 'owner' })).status).toBe(400);
    expect((await call('POST', `${ORG}/invites`, {})).status).toBe(400);
    expect((await call('GET', `${ORG}/members`)).body.count).toBe(10);
  });
});
