/** GET /orgs/{id}/members/{userId}/teams: the teams of one member with their team role (title filter, case-insensitive). */
import { param } from '../context.js';
import { notFound } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryString } from '../query.js';
import { memberKey, members, teamMembers, teams } from '../records.js';
import { requireOrg, type RouteModule } from './common.js';
import { presentTeam } from './teams.js';

export const memberTeamRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: '/v1/orgs/:organizationId/members/:userId/teams',
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const userId = param(ctx, 'userId');
      if (!members(ctx.store).has(memberKey(org.id, userId))) throw notFound(`member "${userId}" not found in organization "${org.id}"`);
      const title = queryString(ctx.query, 'title')?.toLowerCase();
      const rows = teamMembers(ctx.store)
        .where((tm) => tm.orgId === org.id && tm.userId === userId)
        .flatMap((tm) => {
          const team = teams(ctx.store).get(tm.teamId);
          return team && (!title || team.title.toLowerCase().includes(title)) ? [{ team, role: tm.role }] : [];
        });
      return pageOf(ctx, rows, (r) => ({ team: presentTeam(ctx, r.team), member: { role: r.role } }));
    },
  });
};
