/** Teams: list (title / owner filters), create (PUT on the collection), get, rename, delete. */
import type { RequestContext } from '../context.js';
import { badRequest, noContent } from '../http.js';
import { queryString } from '../query.js';
import type { TeamRec } from '../records.js';
import { memberKey, members, teamMemberKey, teamMembers, teams } from '../records.js';
import { array, object, string } from '../validate.js';
import { membersOfTeam } from '../team-index.js';
import { dropGrantsOfTeam, teamSpaceCount } from '../permission-records.js';
import { findInOrg, inOrg, isOrgAdmin, requireInOrg, requireOrg } from './common.js';
import { create, list, newId, read, remove, update } from './crud.js';
import type { RouteTable } from './table.js';

const TEAMS = '/v1/orgs/:organizationId/teams';
export const TEAM = `${TEAMS}/:teamId`;

export const requireTeam = (ctx: RequestContext): TeamRec => requireInOrg(ctx, teams(ctx.store), 'teamId', 'team');

export function presentTeam(ctx: RequestContext, team: TeamRec): Record<string, unknown> {
  const inTeam = membersOfTeam(ctx.store, team.id);
  const owner = inTeam.some((tm) => tm.userId === ctx.userId && tm.role === 'owner');
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: inTeam.length,
    spaces: teamSpaceCount(ctx.store, team.id),
    createdAt: team.createdAt,
    permissions: { admin: owner || isOrgAdmin(ctx, team.orgId), view: true },
  };
}

const title = string({ min: 1, max: 64 });
const createTeam = object({ title, members: array(string()) }, ['title']);
const renameTeam = object({ title }, ['title']);

export const teamRoutes: RouteTable = {
  listTeamsInOrganizationById: list(
    TEAMS,
    (ctx) => {
      let found = inOrg(ctx, teams(ctx.store));
      const titleFilter = queryString(ctx.query, 'title')?.toLowerCase();
      const owner = queryString(ctx.query, 'owner');
      if (titleFilter) found = found.filter((t) => t.title.toLowerCase().includes(titleFilter));
      if (owner !== undefined)
        found = found.filter((t) => teamMembers(ctx.store).get(teamMemberKey(t.id, owner))?.role === 'owner');
      return found;
    },
    presentTeam,
  ),
  createOrganizationTeam: create(
    TEAMS,
    createTeam,
    (ctx, b) => {
      const org = requireOrg(ctx);
      const ids = [...new Set(b.members ?? [])];
      ids.forEach((userId, i) => {
        if (!members(ctx.store).has(memberKey(org.id, userId)))
          throw badRequest(`body.members[${i}]: "${userId}" is not a member of organization "${org.id}"`);
      });
      const id = newId(ctx, teams(ctx.store), 'team', 'team');
      const team = teams(ctx.store).put({ id, orgId: org.id, title: b.title, createdAt: ctx.now().toISOString() });
      for (const userId of ids)
        teamMembers(ctx.store).put({
          id: teamMemberKey(id, userId),
          orgId: org.id,
          teamId: id,
          userId,
          role: 'member',
        });
      return team;
    },
    presentTeam,
    { method: 'PUT' },
  ),
  getTeamInOrganizationById: read(TEAM, requireTeam, presentTeam),
  updateTeamInOrganizationById: update(
    TEAM,
    renameTeam,
    (ctx, b) => teams(ctx.store).put({ ...requireTeam(ctx), title: b.title }),
    presentTeam,
  ),
  // Teams answer 204 whether or not the team existed (management-api.md).
  removeTeamFromOrganizationById: remove(
    TEAM,
    (ctx) => {
      const team = findInOrg(ctx, teams(ctx.store), 'teamId');
      if (!team) return false;
      const id = team.id;
      teams(ctx.store).delete(id);
      for (const tm of teamMembers(ctx.store).where((t) => t.teamId === id)) teamMembers(ctx.store).delete(tm.id);
      dropGrantsOfTeam(ctx.store, id);
      ctx.store.bury('team', id);
      return true;
    },
    { deleted: noContent },
  ),
};
