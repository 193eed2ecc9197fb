/** Team members: list, bulk update (add / remove / memberships), add-or-update one, remove one. All writes 204. */
import { param, type RequestContext } from '../context.js';
import { badRequest, noContent, notFound } from '../http.js';
import type { TeamMemberRec, TeamRec, TeamRole } from '../records.js';
import { TEAM_ROLES, memberKey, members, teamMemberKey, teamMembers, users } from '../records.js';
import { array, object, oneOf, record, string } from '../validate.js';
import { membersOfTeam } from '../team-index.js';
import { presentMember } from './common.js';
import { TEAM, requireTeam } from './teams.js';
import { listPage } from './crud.js';
import { route, type RouteTable } from './table.js';

const MEMBERS = `${TEAM}/members`;

/** A user id or an e-mail address of an organization member → the user id; otherwise 400 naming `path`. */
function resolveMember(ctx: RequestContext, orgId: string, ref: string, path: string): string {
  if (members(ctx.store).has(memberKey(orgId, ref))) return ref;
  const lower = ref.toLowerCase();
  const user = users(ctx.store)
    .all()
    .find((u) => u.email.toLowerCase() === lower);
  if (user && members(ctx.store).has(memberKey(orgId, user.id))) return user.id;
  throw badRequest(
    `${path}: "${ref}" is not a member of organization "${orgId}" (expected a member's user id or e-mail)`,
  );
}

function setRole(ctx: RequestContext, team: TeamRec, userId: string, role: TeamRole): void {
  teamMembers(ctx.store).put({ id: teamMemberKey(team.id, userId), orgId: team.orgId, teamId: team.id, userId, role });
}

const role = oneOf(TEAM_ROLES);
const bulk = object({ add: array(string()), remove: array(string()), memberships: record(object({ role }, ['role'])) });
const single = object({ role });

export const teamMemberRoutes: RouteTable = {
  listTeamMembersInOrganizationById: listPage(MEMBERS, (ctx) => {
    const team = requireTeam(ctx);
    return [
      membersOfTeam(ctx.store, team.id),
      (tm: TeamMemberRec) => {
        const m = members(ctx.store).get(memberKey(team.orgId, tm.userId));
        if (!m) throw new Error(`store is inconsistent: team member ${tm.id} is not an organization member`);
        return { organization: presentMember(ctx, m), team: { role: tm.role }, permissions: { view: true } };
      },
    ];
  }),
  updateMembersInOrganizationTeam: route({
    method: 'PUT',
    pattern: MEMBERS,
    body: bulk,
    bodyOptional: true,
    handler: (ctx, b) => {
      const team = requireTeam(ctx);
      // Resolve everything first so a bad reference changes nothing.
      const add = (b.add ?? []).map((r, i) => resolveMember(ctx, team.orgId, r, `body.add[${i}]`));
      const remove = new Set((b.remove ?? []).map((r, i) => resolveMember(ctx, team.orgId, r, `body.remove[${i}]`)));
      const roles = Object.entries(b.memberships ?? {}).map(
        ([r, m]) => [resolveMember(ctx, team.orgId, r, `body.memberships.${r}`), m.role] as const,
      );
      for (const userId of add) {
        if (!teamMembers(ctx.store).has(teamMemberKey(team.id, userId))) setRole(ctx, team, userId, 'member');
      }
      for (const [userId, r] of roles) setRole(ctx, team, userId, r);
      // A user both added and removed ends up removed.
      for (const userId of remove) teamMembers(ctx.store).delete(teamMemberKey(team.id, userId));
      return noContent();
    },
  }),
  addMemberToOrganizationTeamById: route({
    method: 'PUT',
    pattern: `${MEMBERS}/:userId`,
    body: single,
    bodyOptional: true,
    handler: (ctx, b) => {
      const team = requireTeam(ctx);
      const userId = param(ctx, 'userId');
      if (!members(ctx.store).has(memberKey(team.orgId, userId)))
        throw notFound(`member "${userId}" not found in organization "${team.orgId}"`);
      const existing = teamMembers(ctx.store).get(teamMemberKey(team.id, userId));
      setRole(ctx, team, userId, b.role ?? existing?.role ?? 'member');
      return noContent();
    },
  }),
  deleteMemberFromOrganizationTeamById: route({
    method: 'DELETE',
    pattern: `${MEMBERS}/:userId`,
    handler: (ctx) => {
      const team = requireTeam(ctx);
      teamMembers(ctx.store).delete(teamMemberKey(team.id, param(ctx, 'userId')));
      return noContent();
    },
  }),
};
