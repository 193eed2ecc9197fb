/** GET /orgs/{o}/members/{userId}/teams (management-api.md): a member's teams with their team role; removing the member empties it. */
import { describe, expect, it } from 'vitest';
import { sandbox, type Json } from './helpers.js';

const MEMBERS = '/orgs/org-demo/members';

describe("a member's teams", () => {
  it('lists the teams with the team role, filters by title, and answers 404 for a non-member', async () => {
    const { call } = await sandbox();
    const bob = await call('GET', `${MEMBERS}/u-bob/teams`);
    expect(bob.status).toBe(200);
    expect(bob.body.items.map((x: Json) => [x.team.id, x.team.title, x.member.role])).toEqual([
      ['team-platform', 'Platform', 'member'],
    ]);
    const heidi = await call('GET', `${MEMBERS}/u-heidi/teams`);
    expect(heidi.body.items.map((x: Json) => [x.team.id, x.member.role])).toEqual([['team-writers', 'owner']]);
    expect((await call('GET', `${MEMBERS}/u-ada/teams?title=PLAT`)).body.items.map((x: Json) => x.team.id)).toEqual([
      'team-platform',
    ]);
    expect((await call('GET', `${MEMBERS}/u-ada/teams?title=writ`)).body.items).toEqual([]);
    expect((await call('GET', `${MEMBERS}/u-dan/teams`)).body.items).toEqual([]);
    expect((await call('GET', `${MEMBERS}/u-nobody/teams`)).status).toBe(404);
  });

  it('removing the member removes their memberships (the cascade docops plans for)', async () => {
    const { call } = await sandbox();
    expect((await call('DELETE', `${MEMBERS}/u-judy`)).status).toBe(204);
    const writers = await call('GET', '/orgs/org-demo/teams/team-writers/members');
    expect(writers.body.items.map((x: Json) => x.organization.id)).toEqual(['u-heidi', 'u-erin']);
    expect((await call('GET', `${MEMBERS}/u-judy/teams`)).status).toBe(404);
  });
});
