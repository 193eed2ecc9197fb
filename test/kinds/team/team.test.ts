import { ref } from '../../../src/model/refs.js';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../src/model/errors.js';
import type { DesiredEntry } from '../../../src/model/kind.js';
import { membersKind } from '../../../src/kinds/members/kind.js';
import type { TeamManifestSpec } from '../../../src/kinds/generated/team.js';
import { teamKind } from '../../../src/kinds/team/kind.js';
import { desiredOf, fakeDiffContext, fakeDoc, fakeFetchContext, plan, reports, identityLookup } from '../helpers.js';
import { ORG, seedRoutes } from '../seed.js';

type TM = { email: string; role?: 'owner' | 'member' };
const at = (name: string, role?: 'owner' | 'member'): TM =>
  role ? { email: `${name}@acme.test`, role } : { email: `${name}@acme.test` };

const teamDoc = (spec: TeamManifestSpec, file = 'teams.yaml') => fakeDoc('Team', ORG, spec, file);
const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    teamKind,
    specs.map((s) => fakeDoc('Team', ORG, s, 'teams.yaml')),
  );

const PLATFORM = { title: 'Platform', members: [at('ada', 'owner'), at('bob'), at('carol')] };
const WRITERS = { title: 'Writers', members: [at('heidi', 'owner'), at('judy'), at('erin')] };
const SUPPORT = { title: 'Support', members: [at('frank'), at('ivan')] };

describe('Team diff', () => {
  it('plans nothing when teams and memberships match', async () => {
    const { result } = await plan(teamKind, ORG, desired(PLATFORM, WRITERS, SUPPORT), seedRoutes());
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });

  it('fetches member lists only of teams whose members a manifest manages (and under prune of those it deletes)', async () => {
    const ctx = fakeFetchContext(seedRoutes());
    await teamKind.fetch(ctx, ORG, desired(PLATFORM, { title: 'Writers' }));
    expect(ctx.asked.sort()).toEqual([
      '/orgs/org-demo/members',
      '/orgs/org-demo/teams',
      '/orgs/org-demo/teams/team-platform/members',
    ]);
    const pruning = fakeFetchContext(seedRoutes(), ['Team']);
    await teamKind.fetch(pruning, ORG, desired(PLATFORM, { title: 'Writers' }));
    // Under prune also the SAML providers: a deleted team leaves a provider naming it without a default team.
    expect(pruning.asked.sort()).toEqual([
      '/orgs/org-demo/members',
      '/orgs/org-demo/saml',
      '/orgs/org-demo/teams',
      '/orgs/org-demo/teams/team-platform/members',
      '/orgs/org-demo/teams/team-support/members',
    ]);
  });

  it('puts all membership changes of one team into one bulk PUT', async () => {
    // judy becomes owner, heidi member, erin leaves, dan (an org member) joins as owner, bob joins.
    const spec = { title: 'Writers', members: [at('heidi'), at('judy', 'owner'), at('dan', 'owner'), at('bob')] };
    const { result } = await plan(teamKind, ORG, desired(spec), seedRoutes());
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({
      id: 'Team/org-demo/Writers#members',
      action: 'update',
      phase: 'update',
      wave: 20,
      dependsOn: [],
      before: {
        members: {
          'heidi@acme.test': 'owner',
          'judy@acme.test': 'member',
          'dan@acme.test': null,
          'bob@acme.test': null,
          'erin@acme.test': 'member',
        },
      },
      after: {
        members: {
          'heidi@acme.test': 'member',
          'judy@acme.test': 'owner',
          'dan@acme.test': 'owner',
          'bob@acme.test': 'member',
          'erin@acme.test': null,
        },
      },
      requests: [
        {
          method: 'PUT',
          path: '/orgs/org-demo/teams/team-writers/members',
          body: {
            add: ['u-dan', 'u-bob'],
            remove: ['u-erin'],
            memberships: { 'u-heidi': { role: 'member' }, 'u-judy': { role: 'owner' }, 'u-dan': { role: 'owner' } },
          },
        },
      ],
    });
    expect(result.unmanaged.map((u) => u.key)).toEqual(['Platform', 'Support']);
  });

  it('an empty members list removes everyone; no members key leaves membership alone', async () => {
    const { result } = await plan(
      teamKind,
      ORG,
      desired({ title: 'Support', members: [] }, { title: 'Platform' }),
      seedRoutes(),
    );
    expect(result.steps.map((s) => [s.id, s.requests[0]!.body])).toEqual([
      ['Team/org-demo/Support#members', { remove: ['u-frank', 'u-ivan'] }],
    ]);
  });

  it('creates a team with existing members, then sets owners in one bulk PUT on the new id', async () => {
    const spec = { title: 'Security', members: [at('grace', 'owner'), at('ada')] };
    const ctx = fakeDiffContext();
    const { result } = await plan(teamKind, ORG, desired(PLATFORM, WRITERS, SUPPORT, spec), seedRoutes(), ctx);
    expect(result.steps).toEqual([
      {
        id: 'Team/org-demo/Security#create',
        action: 'create',
        phase: 'create',
        kind: 'Team',
        org: ORG,
        key: 'Security',
        wave: 20,
        before: null,
        after: { title: 'Security', members: { 'grace@acme.test': 'owner', 'ada@acme.test': 'member' } },
        dependsOn: [],
        requests: [
          {
            method: 'PUT',
            path: '/orgs/org-demo/teams',
            body: { title: 'Security', members: ['u-grace', 'u-ada'] },
            capture: { id: 'id' },
            recover: { match: [{ field: 'title', body: '/title' }] },
          },
        ],
        source: { file: 'teams.yaml', line: 10, column: 1 },
      },
      {
        id: 'Team/org-demo/Security#members',
        action: 'create',
        phase: 'create',
        kind: 'Team',
        org: ORG,
        key: 'Security',
        wave: 21,
        before: null,
        after: { members: { 'grace@acme.test': 'owner' } },
        dependsOn: ['Team/org-demo/Security#create'],
        requests: [
          {
            method: 'PUT',
            path: '/orgs/org-demo/teams/<<ref:Team/org-demo/Security#create.id>>/members',
            body: { memberships: { 'u-grace': { role: 'owner' } } },
            refs: [{ at: 'path', offset: 21, step: 'Team/org-demo/Security#create', output: 'id' }],
          },
        ],
        source: { file: 'teams.yaml', line: 10, column: 1 },
        note: 'owners and members invited in this plan',
      },
    ]);
    expect(ctx.resolve('Team', ORG, 'Security')).toBe(ref('Team/org-demo/Security#create'));
    expect(ctx.resolve('Team', ORG, 'Platform')).toBe('team-platform');
  });

  it('creates a plain team with one request when no owner or invitee is involved', async () => {
    const { result } = await plan(
      teamKind,
      ORG,
      desired({ title: 'Empty' }, { title: 'Two', members: [at('bob')] }),
      seedRoutes(),
    );
    expect(result.steps.map((s) => [s.id, s.requests])).toEqual([
      [
        'Team/org-demo/Empty#create',
        [
          {
            method: 'PUT',
            path: '/orgs/org-demo/teams',
            body: { title: 'Empty' },
            capture: { id: 'id' },
            recover: { match: [{ field: 'title', body: '/title' }] },
          },
        ],
      ],
      [
        'Team/org-demo/Two#create',
        [
          {
            method: 'PUT',
            path: '/orgs/org-demo/teams',
            body: { title: 'Two', members: ['u-bob'] },
            capture: { id: 'id' },
            recover: { match: [{ field: 'title', body: '/title' }] },
          },
        ],
      ],
    ]);
  });

  it('adds members invited in the same plan by e-mail, depending on the invite step', async () => {
    const ctx = fakeDiffContext({ invite: true });
    const routes = seedRoutes();
    // The Members diff runs first (lower depth) and registers the invitee.
    const membersDesired = desiredOf(membersKind, [
      fakeDoc('Members', ORG, { members: [{ email: 'zoe@acme.test', role: 'edit' }] }),
    ]);
    const membersLive = await membersKind.fetch(fakeFetchContext(routes), ORG, membersDesired);
    membersKind.diff(ctx, ORG, membersDesired, membersLive);

    const { result } = await plan(
      teamKind,
      ORG,
      desired(
        { title: 'Support', members: [at('frank'), at('ivan'), at('zoe', 'owner')] },
        { title: 'New', members: [at('zoe'), at('bob')] },
      ),
      routes,
      ctx,
    );
    const byId = new Map(result.steps.map((s) => [s.id, s]));
    expect(byId.get('Team/org-demo/Support#members')).toMatchObject({
      dependsOn: ['Members/org-demo/invite#create'],
      requests: [{ body: { add: ['zoe@acme.test'], memberships: { 'zoe@acme.test': { role: 'owner' } } } }],
    });
    expect(byId.get('Team/org-demo/New#create')!.requests[0]!.body).toEqual({ title: 'New', members: ['u-bob'] });
    expect(byId.get('Team/org-demo/New#members')).toMatchObject({
      dependsOn: ['Members/org-demo/invite#create', 'Team/org-demo/New#create'],
      requests: [
        { path: '/orgs/org-demo/teams/<<ref:Team/org-demo/New#create.id>>/members', body: { add: ['zoe@acme.test'] } },
      ],
    });
  });

  it('blocks a team listing an e-mail that is not an organization member (more in refs-team.test.ts)', async () => {
    const { result } = await plan(
      teamKind,
      ORG,
      desired({ title: 'Support', members: [at('frank'), at('ivan'), at('nobody')] }),
      seedRoutes(),
    );
    expect(result.steps).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.blocked.map((b) => [b.key, b.source?.line])).toEqual([['Support', 12]]);
  });

  it('renames by pinned id', async () => {
    const { result } = await plan(
      teamKind,
      ORG,
      desired({ title: 'Platform Engineering', id: 'team-platform' }),
      seedRoutes(),
    );
    expect(result.steps).toEqual([
      expect.objectContaining({
        id: 'Team/org-demo/Platform Engineering#update',
        action: 'update',
        before: { title: 'Platform' },
        after: { title: 'Platform Engineering' },
        requests: [
          { method: 'PATCH', path: '/orgs/org-demo/teams/team-platform', body: { title: 'Platform Engineering' } },
        ],
      }),
    ]);
  });

  it('falls back to the title when a pinned id is gone, with a warning', async () => {
    const { result } = await plan(teamKind, ORG, desired({ title: 'Support', id: 'team-gone' }), seedRoutes());
    expect(result.steps).toEqual([]);
    expect(result.warnings[0]!.message).toContain('team-gone does not exist');
  });

  it('refuses to guess between two live teams with one title', async () => {
    const routes = seedRoutes();
    (routes[`/orgs/${ORG}/teams`] as unknown[]).push({
      object: 'team',
      id: 'team-support-2',
      title: 'Support',
      members: 0,
    });
    const entries = desired({ title: 'Support' });
    await expect(teamKind.fetch(fakeFetchContext(routes), ORG, entries)).rejects.toThrow(ConflictError);
    const live = await teamKind.fetch(fakeFetchContext(routes), ORG, []);
    expect(() => teamKind.diff(fakeDiffContext(), ORG, entries, live)).toThrow(
      /teams.yaml:10:1: Team "Support".*team-support, team-support-2/,
    );
    // Pinning one of them resolves it.
    const pinned = desired({ title: 'Support', id: 'team-support-2' });
    expect(teamKind.diff(fakeDiffContext(), ORG, pinned, live).steps).toEqual([]);
  });

  it('deletes unmanaged teams only under prune, in the prune phase', async () => {
    const entries = desired(PLATFORM);
    const { result } = await plan(teamKind, ORG, entries, seedRoutes(), fakeDiffContext({ prune: ['Team'] }));
    expect(result.unmanaged).toEqual([]);
    expect(result.steps.map((s) => [s.id, s.action, s.phase, s.requests[0]])).toEqual([
      [
        'Team/org-demo/Writers#delete',
        'delete',
        'prune',
        { method: 'DELETE', path: '/orgs/org-demo/teams/team-writers' },
      ],
      [
        'Team/org-demo/Support#delete',
        'delete',
        'prune',
        { method: 'DELETE', path: '/orgs/org-demo/teams/team-support' },
      ],
    ]);
  });

  it('exports documents with pinned ids that re-diff to zero steps', async () => {
    const all = desired(PLATFORM, WRITERS, SUPPORT);
    const { live } = await plan(teamKind, ORG, all, seedRoutes());
    const docs = teamKind.export!(ORG, live) as { spec: Record<string, unknown> }[];
    expect(docs.map((d) => d.spec)).toEqual([
      { title: 'Platform', id: 'team-platform', members: [at('ada', 'owner'), at('bob'), at('carol')] },
      { title: 'Support', id: 'team-support', members: [at('frank'), at('ivan')] },
      { title: 'Writers', id: 'team-writers', members: [at('erin'), at('heidi', 'owner'), at('judy')] },
    ]);
    const again = teamKind.diff(fakeDiffContext({ prune: ['Team'] }), ORG, desired(...docs.map((d) => d.spec)), live);
    expect(again).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });
});

describe('Team validation', () => {
  it('reports duplicate e-mails inside one team at the second occurrence', () => {
    const r = reports();
    teamKind.toDesired(
      teamDoc({ title: 'T', members: [at('bob'), at('ada'), { email: 'BOB@acme.test', role: 'owner' }] }),
      r.report,
    );
    expect(r.list).toEqual([
      {
        pos: { file: 'teams.yaml', line: 12, column: 4 },
        message: 'bob@acme.test is listed twice in team "T" (first at members[0])',
      },
    ]);
  });

  const membersEntries = (emails: string[]): DesiredEntry[] =>
    desiredOf(membersKind, [fakeDoc('Members', ORG, { members: emails.map((e) => ({ email: e, role: 'read' })) })]);

  it('requires team members to be listed in the Members documents of the org when there are any', () => {
    const teams = desired({ title: 'T', members: [at('ada'), at('zed'), at('bob')] });
    const r = reports();
    const all = new Map([['Members', membersEntries(['ada@acme.test', 'BOB@acme.test'])]]);
    teamKind.crossValidate!(teams, all, r.report, identityLookup(all));
    expect(r.list).toEqual([
      {
        pos: { file: 'teams.yaml', line: 11, column: 4 },
        message:
          'zed@acme.test is not listed in the Members documents of organization org-demo; team members must be organization members',
      },
    ]);
    const none = reports();
    teamKind.crossValidate!(teams, new Map(), none.report, identityLookup(new Map()));
    expect(none.list).toEqual([]);
  });
});
