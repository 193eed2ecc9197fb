/**
 * Team and member removals take memberships with them: a pruned team lists its memberships, a removed member
 * lists the team memberships they leave (except those the Team kind removes first), both read only under prune,
 * only for what would be deleted, and only when the `members` / `teams` count is not 0.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredEntry, LiveKindState } from '../../../src/model/kind.js';
import { membersKind, samlKind, teamKind } from '../../../src/kinds/index.js';
import type { TeamSpec } from '../../../src/kinds/team/model.js';
import { desiredOf, fakeDiffContext, fakeDoc, fakeFetchContext } from '../helpers.js';
import { ORG, member, seedRoutes } from '../seed.js';

const BASE = `/orgs/${ORG}`;
const teams = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    teamKind,
    specs.map((s) => fakeDoc('Team', ORG, s)),
  );
const membersDoc = (emails: string[]) =>
  desiredOf(membersKind, [
    fakeDoc('Members', ORG, { members: emails.map((e) => ({ email: `${e}@acme.test`, role: 'read' })) }),
  ]);
const EVERYONE = ['ada', 'bob', 'carol', 'dan', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];

/** The seed with team and space counts on members, an empty team, and a team with content access. */
function routes(): Record<string, unknown> {
  const r = seedRoutes();
  const inTeams: Record<string, number> = { ada: 1, bob: 1, carol: 1, heidi: 1, judy: 1, erin: 1, frank: 1, ivan: 1 };
  r[`${BASE}/members`] = EVERYONE.map((n) => ({
    ...member(n, 'read'),
    teams: inTeams[n] ?? 0,
    spaces: n === 'judy' ? 2 : 0,
  }));
  r[`${BASE}/teams`] = [
    ...(r[`${BASE}/teams`] as object[]).map((t) =>
      (t as { id: string }).id === 'team-writers' ? { ...t, spaces: 4 } : t,
    ),
    { object: 'team', id: 'team-empty', title: 'Empty', members: 0 },
  ];
  r[`${BASE}/members/u-judy/teams`] = [
    { team: { object: 'team', id: 'team-writers', title: 'Writers', members: 3 }, member: { role: 'member' } },
  ];
  r[`${BASE}/members/u-frank/teams`] = [
    { team: { object: 'team', id: 'team-support', title: 'Support', members: 2 }, member: { role: 'member' } },
  ];
  return r;
}

const membership = (key: string) => ({ kind: 'TeamMember', org: ORG, key });

async function teamPlan(desired: DesiredEntry<TeamSpec>[], prune: string[]) {
  const f = fakeFetchContext(routes(), prune);
  const live = await teamKind.fetch(f, ORG, desired);
  return { live, result: teamKind.diff(fakeDiffContext({ prune }), ORG, desired, live), asked: f.asked };
}

describe('Team prune: a team delete takes its memberships', () => {
  it('lists them, reading the member list of each team that would be deleted (not of an empty one)', async () => {
    const { result, asked } = await teamPlan(teams({ title: 'Platform' }), ['Team']);
    expect(result.steps.map((s) => [s.id, s.cascades ?? [], s.note])).toEqual([
      [
        'Team/org-demo/Writers#delete',
        [
          membership('Writers/heidi@acme.test'),
          membership('Writers/judy@acme.test'),
          membership('Writers/erin@acme.test'),
        ],
        'its access to 4 spaces goes too',
      ],
      [
        'Team/org-demo/Support#delete',
        [membership('Support/frank@acme.test'), membership('Support/ivan@acme.test')],
        undefined,
      ],
      ['Team/org-demo/Empty#delete', [], undefined],
    ]);
    expect(asked.filter((p) => p.endsWith('/members') && p.includes('/teams/')).sort()).toEqual([
      `${BASE}/teams/team-support/members`,
      `${BASE}/teams/team-writers/members`,
    ]);
  });

  it('names the SAML providers a deleted team leaves without a default team, except those a SamlProvider manifest re-points or prunes first', async () => {
    const provider = (id: string, label: string, team?: { id: string; title: string }) => ({
      object: 'saml-provider',
      id,
      label,
      ...(team ? { defaultTeam: { object: 'team', ...team } } : {}),
      defaultRole: null,
    });
    const r = routes();
    r[`${BASE}/saml`] = [
      provider('saml-1', 'Okta', { id: 'team-writers', title: 'Writers' }),
      provider('saml-2', 'Azure', { id: 'team-writers', title: 'Writers' }),
      provider('saml-3', 'Google', { id: 'team-platform', title: 'Platform' }),
      provider('saml-4', 'Empty', { id: 'team-empty', title: 'Empty' }),
    ];
    const f = fakeFetchContext(r, ['Team']);
    const desired = teams({ title: 'Platform' });
    const live = await teamKind.fetch(f, ORG, desired);
    const notes = (ctx: ReturnType<typeof fakeDiffContext>) =>
      teamKind.diff(ctx, ORG, desired, live).steps.map((s) => [s.key, s.note]);
    // No SamlProvider documents: every provider naming a deleted team is named on its delete step.
    expect(notes(fakeDiffContext({ prune: ['Team'] }))).toEqual([
      [
        'Writers',
        'its access to 4 spaces goes too; SAML providers "Okta", "Azure" name it as default team and keep none',
      ],
      ['Support', undefined],
      ['Empty', 'SAML provider "Empty" names it as default team and keeps none'],
    ]);
    expect(f.asked.filter((p) => p.endsWith('/saml'))).toEqual([`${BASE}/saml`]);
    // A document writing Okta's defaultTeam re-points it first (update phase); under SamlProvider prune, Empty
    // (no document) is deleted before the team.
    const saml = (spec: Record<string, unknown>) => desiredOf(samlKind, [fakeDoc('SamlProvider', ORG, spec)]);
    const ctx = fakeDiffContext({
      prune: ['Team', 'SamlProvider'],
      desired: [...saml({ label: 'Okta', defaultTeam: 'Platform' }), ...saml({ label: 'Azure' })],
    });
    expect(notes(ctx)).toEqual([
      ['Writers', 'its access to 4 spaces goes too; SAML provider "Azure" names it as default team and keeps none'],
      ['Support', undefined],
      ['Empty', undefined],
    ]);
  });

  it('reads no member list without prune', async () => {
    const { asked, result } = await teamPlan(teams({ title: 'Platform' }), []);
    expect(asked.filter((p) => p.includes('/teams/'))).toEqual([]);
    expect(result.unmanaged.map((u) => u.key)).toEqual(['Writers', 'Support', 'Empty']);
  });
});

describe('Members prune: a removed member leaves their teams', () => {
  async function membersPlan(
    keep: string[],
    opts: { prune?: string[]; teamEntries?: DesiredEntry[]; teamLive?: LiveKindState } = {},
  ) {
    const prune = opts.prune ?? ['Members'];
    const desired = membersDoc(keep);
    const f = fakeFetchContext(routes(), prune);
    const live = await membersKind.fetch(f, ORG, desired);
    const ctx = fakeDiffContext({
      prune,
      desired: opts.teamEntries ?? [],
      ...(opts.teamLive ? { live: { Team: opts.teamLive } } : {}),
    });
    return { result: membersKind.diff(ctx, ORG, desired, live), asked: f.asked };
  }
  const keep = EVERYONE.filter((n) => n !== 'judy' && n !== 'frank' && n !== 'dan');

  it("lists the memberships each removal takes, reading a member's teams only when they have any", async () => {
    const { result, asked } = await membersPlan(keep);
    expect(result.steps.map((s) => [s.key, s.cascades ?? [], s.note])).toEqual([
      ['dan@acme.test', [], 'remove from the organization'],
      ['frank@acme.test', [membership('Support/frank@acme.test')], 'remove from the organization'],
      [
        'judy@acme.test',
        [membership('Writers/judy@acme.test')],
        'remove from the organization; their access to 2 spaces goes too',
      ],
    ]);
    expect(asked.filter((p) => p.endsWith('/teams')).sort()).toEqual([
      `${BASE}/members/u-frank/teams`,
      `${BASE}/members/u-judy/teams`,
    ]);
  });

  it('reads nothing more without prune', async () => {
    const { asked } = await membersPlan(keep, { prune: [] });
    expect(asked).toEqual([`${BASE}/members`]);
  });

  it('leaves out memberships the Team kind removes first (its membership step, or its own team delete)', async () => {
    const teamLive = (await teamKind.fetch(fakeFetchContext(routes()), ORG, [])).objects;
    // Support is described with members written (its step removes frank); Writers is pruned (its delete takes judy's).
    const teamEntries = teams({ title: 'Support', members: [{ email: 'ivan@acme.test' }] }, { title: 'Platform' });
    const both = await membersPlan(keep, { prune: ['Members', 'Team'], teamEntries, teamLive: { objects: teamLive } });
    expect(both.result.steps.map((s) => [s.key, s.cascades ?? []])).toEqual([
      ['dan@acme.test', []],
      ['frank@acme.test', []],
      ['judy@acme.test', []],
    ]);
    // Without Team prune, Writers stays and judy's membership goes with her.
    const noTeamPrune = await membersPlan(keep, { prune: ['Members'], teamEntries, teamLive: { objects: teamLive } });
    expect(noTeamPrune.result.steps.map((s) => [s.key, s.cascades ?? []])).toEqual([
      ['dan@acme.test', []],
      ['frank@acme.test', []],
      ['judy@acme.test', [membership('Writers/judy@acme.test')]],
    ]);
  });
});
