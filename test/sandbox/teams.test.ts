import { describe, expect, it } from 'vitest';
import { sandbox, type Json } from './helpers.js';

const TEAMS = '/orgs/org-demo/teams';
const memberIds = async (call: Json, team: string): Promise<Record<string, string>> => {
  const res = await call('GET', `${TEAMS}/${team}/members`);
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.items.map((x: Json) => [x.organization.id, x.team.role]));
};

describe('teams', () => {
  it('lists the demo teams with member counts, filters by title and owner', async () => {
    const { call } = await sandbox();
    const list = await call('GET', TEAMS);
    expect(list.status).toBe(200);
    expect(list.body.items.map((t: Json) => [t.id, t.title, t.members])).toEqual([
      ['team-platform', 'Platform', 3],
      ['team-writers', 'Writers', 3],
      ['team-support', 'Support', 2],
    ]);
    expect((await call('GET', `${TEAMS}?title=RIT`)).body.items.map((t: Json) => t.id)).toEqual(['team-writers']);
    expect((await call('GET', `${TEAMS}?owner=u-heidi`)).body.items.map((t: Json) => t.id)).toEqual(['team-writers']);
    expect((await call('GET', `${TEAMS}?owner=u-frank`)).body.items).toEqual([]);
  });

  it('creates with PUT (201), gets, renames, deletes (204, also when already gone)', async () => {
    const { call } = await sandbox();
    const made = await call('PUT', TEAMS, { title: 'Docs Ops', members: ['u-bob', 'u-dan'] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'team', title: 'Docs Ops', members: 2 });
    const id = made.body.id as string;
    expect(await memberIds(call, id)).toEqual({ 'u-bob': 'member', 'u-dan': 'member' });
    expect((await call('GET', `${TEAMS}/${id}`)).body).toEqual(made.body);
    const renamed = await call('PATCH', `${TEAMS}/${id}`, { title: 'DocOps' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('DocOps');
    expect((await call('DELETE', `${TEAMS}/${id}`)).status).toBe(204);
    expect((await call('GET', `${TEAMS}/${id}`)).status).toBe(404);
    expect((await call('DELETE', `${TEAMS}/${id}`)).status).toBe(204);
    expect((await call('GET', `/orgs/org-demo/members/u-dan`)).body.teams).toBe(0);
  });

  it('rejects unknown members, a missing title and an unknown team', async () => {
    const { call } = await sandbox();
    const bad = await call('PUT', TEAMS, { title: 'X', members: ['u-bob', 'u-nobody'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.members[1]');
    expect((await call('GET', TEAMS)).body.count).toBe(3);
    expect((await call('PATCH', `${TEAMS}/team-platform`, {})).status).toBe(400);
    expect((await call('GET', `${TEAMS}/team-nope`)).status).toBe(404);
    expect((await call('PATCH', `${TEAMS}/team-nope`, { title: 'x' })).status).toBe(404);
  });
});

describe('team members', () => {
  it('lists members with their team role and permissions', async () => {
    const { call } = await sandbox();
    const res = await call('GET', `${TEAMS}/team-platform/members`);
    expect(res.body.items[0]).toMatchObject({
      organization: { object: 'member', id: 'u-ada' },
      team: { role: 'owner' },
      permissions: { view: true },
    });
    expect(await memberIds(call, 'team-platform')).toEqual({
      'u-ada': 'owner',
      'u-bob': 'member',
      'u-carol': 'member',
    });
  });

  it('bulk-updates by id or e-mail; memberships set roles; add+remove ends removed', async () => {
    const { call } = await sandbox();
    const res = await call('PUT', `${TEAMS}/team-support/members`, {
      add: ['u-dan', 'grace@acme.test', 'u-judy'],
      remove: ['frank@acme.test', 'u-judy'],
      memberships: { 'ivan@acme.test': { role: 'owner' }, 'u-grace': { role: 'owner' } },
    });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await memberIds(call, 'team-support')).toEqual({ 'u-ivan': 'owner', 'u-dan': 'member', 'u-grace': 'owner' });
  });

  it('rejects non-members and changes nothing', async () => {
    const { call } = await sandbox();
    const res = await call('PUT', `${TEAMS}/team-support/members`, { add: ['u-dan', 'stranger@elsewhere.test'] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('body.add[1]');
    expect(
      (await call('PUT', `${TEAMS}/team-support/members`, { memberships: { 'u-dan': { role: 'boss' } } })).status,
    ).toBe(400);
    expect(await memberIds(call, 'team-support')).toEqual({ 'u-frank': 'member', 'u-ivan': 'member' });
  });

  it('adds or updates one member (204) and removes one (204, also when not in the team)', async () => {
    const { call } = await sandbox();
    expect((await call('PUT', `${TEAMS}/team-support/members/u-erin`)).status).toBe(204);
    expect((await call('PUT', `${TEAMS}/team-support/members/u-frank`, { role: 'owner' })).status).toBe(204);
    expect((await call('PUT', `${TEAMS}/team-support/members/u-frank`, {})).status).toBe(204);
    expect(await memberIds(call, 'team-support')).toEqual({
      'u-frank': 'owner',
      'u-ivan': 'member',
      'u-erin': 'member',
    });
    expect((await call('DELETE', `${TEAMS}/team-support/members/u-ivan`)).status).toBe(204);
    expect((await call('DELETE', `${TEAMS}/team-support/members/u-ivan`)).status).toBe(204);
    expect(await memberIds(call, 'team-support')).toEqual({ 'u-frank': 'owner', 'u-erin': 'member' });
    expect((await call('PUT', `${TEAMS}/team-support/members/u-nobody`)).status).toBe(404);
    expect((await call('DELETE', `${TEAMS}/team-nope/members/u-ivan`)).status).toBe(404);
  });
});
