/**
 * Team member e-mails resolve through the org's members, or through an invite planned by the Members kind.
 * One that is neither blocks the team (not just the member): no create, no rename, no membership change.
 */
import { describe, expect, it } from 'vitest';
import { membersKind } from '../../../src/kinds/members/kind.js';
import { teamKind } from '../../../src/kinds/team/kind.js';
import { desiredOf, fakeDiffContext, fakeDoc, fakeFetchContext, plan } from '../helpers.js';
import { ORG, seedRoutes } from '../seed.js';

const at = (name: string, role?: 'owner' | 'member') =>
  role ? { email: `${name}@acme.test`, role } : { email: `${name}@acme.test` };
const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    teamKind,
    specs.map((s) => fakeDoc('Team', ORG, s, 'teams.yaml')),
  );
const ADVICE = 'add them to a Members document with invite: true (or invite them) before listing them in a team';

/** Run the Members diff first (as the engine does), so its invites are registered for the Team diff. */
async function membersFirst(members: Record<string, unknown>[], invite: boolean) {
  const ctx = fakeDiffContext({ invite });
  const d = desiredOf(membersKind, [fakeDoc('Members', ORG, { members })]);
  membersKind.diff(ctx, ORG, d, await membersKind.fetch(fakeFetchContext(seedRoutes()), ORG, d));
  return ctx;
}

describe('Team member references', () => {
  it('a new team listing a non-member is blocked at that e-mail; the other teams still plan', async () => {
    const ctx = fakeDiffContext();
    const { result } = await plan(
      teamKind,
      ORG,
      desired(
        { title: 'Squad', members: [at('bob'), at('zoe', 'owner'), at('nobody')] },
        { title: 'Two', members: [at('bob')] },
      ),
      seedRoutes(),
      ctx,
    );
    expect(result.blocked).toEqual([
      {
        kind: 'Team',
        org: ORG,
        key: 'Squad',
        source: { file: 'teams.yaml', line: 11, column: 4 },
        message: `zoe@acme.test is not an organization member and is not invited in this plan; also nobody@acme.test (teams.yaml:12:4); ${ADVICE}`,
      },
    ]);
    expect(result.steps.map((s) => s.id)).toEqual(['Team/org-demo/Two#create']);
    expect(result.warnings).toEqual([]);
    expect(ctx.registered.has(`Team|${ORG}|Squad`)).toBe(false);
  });

  it('an existing team is blocked as a whole: neither its rename nor its other membership changes are planned', async () => {
    const { result } = await plan(
      teamKind,
      ORG,
      desired({ title: 'Support Crew', id: 'team-support', members: [at('frank'), at('bob'), at('nobody')] }),
      seedRoutes(),
    );
    expect(result.steps).toEqual([]);
    expect(result.blocked.map((b) => [b.key, b.source?.line])).toEqual([['Support Crew', 12]]);
  });

  it('a member invited in this plan resolves; one listed in Members but not invited does not', async () => {
    const spec = { title: 'Squad', members: [at('bob'), at('zoe')] };
    const invited = await membersFirst([{ email: 'zoe@acme.test', role: 'edit' }], true);
    const ok = await plan(teamKind, ORG, desired(spec), seedRoutes(), invited);
    expect(ok.result.blocked).toEqual([]);
    expect(ok.result.steps.map((s) => s.id)).toEqual(['Team/org-demo/Squad#create', 'Team/org-demo/Squad#members']);
    const listedOnly = await membersFirst([{ email: 'zoe@acme.test', role: 'edit' }], false);
    const blocked = await plan(teamKind, ORG, desired(spec), seedRoutes(), listedOnly);
    expect(blocked.result.steps).toEqual([]);
    expect(blocked.result.blocked.map((b) => b.message)).toEqual([
      `zoe@acme.test is not an organization member and is not invited in this plan; ${ADVICE}`,
    ]);
  });

  it('members already in the live team need no resolving', async () => {
    const { result } = await plan(
      teamKind,
      ORG,
      desired({ title: 'Support', members: [at('frank', 'owner'), at('ivan')] }),
      seedRoutes(),
    );
    expect(result.blocked).toEqual([]);
    expect(result.steps.map((s) => s.id)).toEqual(['Team/org-demo/Support#members']);
  });
});
