/** Organization members: list (filters, sort, order), get, patch role, remove (which leaves their teams), their teams, mark as SSO; and users (GET /user, /users/{id}). */
import { param, type RequestContext } from '../context.js';
import { noContent, notFound, ok } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryEnum, queryString } from '../query.js';
import type { MemberRec } from '../records.js';
import { MEMBER_ROLES, memberKey, members, teamMemberKey, teamMembers, teams, users } from '../records.js';
import { nullable, object, oneOf } from '../validate.js';
import { dropGrantsOfMember } from '../permission-records.js';
import { presentMember, presentUser, requireOrg, requireUser } from './common.js';
import { presentTeam } from './teams.js';
import { list, read, remove, update, written } from './crud.js';
import { route, type RouteTable } from './table.js';

const MEMBERS = '/v1/orgs/:organizationId/members';
const MEMBER = `${MEMBERS}/:userId`;

function requireMember(ctx: RequestContext, orgId: string): MemberRec {
  const userId = param(ctx, 'userId');
  const m = members(ctx.store).get(memberKey(orgId, userId));
  if (!m) throw notFound(`member "${userId}" not found in organization "${orgId}"`);
  return m;
}

function listMembers(ctx: RequestContext): MemberRec[] {
  const org = requireOrg(ctx);
  const role = queryEnum(ctx.query, 'role', [...MEMBER_ROLES, 'guest']);
  const sort = queryEnum(ctx.query, 'sort', ['joinedAt', 'lastSeenAt', 'name']) ?? 'joinedAt';
  const order = queryEnum(ctx.query, 'order', ['asc', 'desc']) ?? 'desc';
  const search = queryString(ctx.query, 'search')?.toLowerCase();
  let list = members(ctx.store).where((m) => m.orgId === org.id);
  if (role !== undefined) list = list.filter((m) => (role === 'guest' ? m.role === null : m.role === role));
  if (search) {
    list = list.filter((m) => {
      const u = requireUser(ctx, m.userId);
      return u.displayName.toLowerCase().includes(search) || u.email.toLowerCase().includes(search);
    });
  }
  // With sort=lastSeenAt only members that were ever active are listed (as the API documents).
  if (sort === 'lastSeenAt') list = list.filter((m) => m.lastSeenAt !== undefined);
  const key = (m: MemberRec): string =>
    sort === 'name'
      ? requireUser(ctx, m.userId).displayName.toLowerCase()
      : sort === 'lastSeenAt'
        ? (m.lastSeenAt ?? '')
        : m.joinedAt;
  // Stable sort ascending (ties keep insertion order), then reverse the whole list for desc.
  const sorted = list.map((m, i) => ({ m, i, k: key(m) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.i - b.i));
  if (order === 'desc') sorted.reverse();
  return sorted.map((x) => x.m);
}

const patchMember = object({ role: nullable(oneOf(MEMBER_ROLES)) });

export const memberRoutes: RouteTable = {
  getAuthenticatedUser: read('/v1/user', (ctx) => requireUser(ctx, ctx.userId), presentUser),
  getUserById: read(
    '/v1/users/:userId',
    (ctx) => {
      const user = users(ctx.store).get(param(ctx, 'userId'));
      if (!user) throw notFound(`user "${param(ctx, 'userId')}" not found`);
      return user;
    },
    presentUser,
  ),
  listMembersInOrganizationById: list(MEMBERS, listMembers, presentMember),
  getMemberInOrganizationById: read(MEMBER, (ctx) => requireMember(ctx, requireOrg(ctx).id), presentMember),
  updateMemberInOrganizationById: update(
    MEMBER,
    patchMember,
    (ctx, b) => members(ctx.store).put(written(requireMember(ctx, requireOrg(ctx).id), b, ['role'])),
    presentMember,
  ),
  // Leaving the organization also leaves its teams and loses its content grants. Already absent ⇒ still 204.
  removeMemberFromOrganizationById: remove(
    MEMBER,
    (ctx) => {
      const org = requireOrg(ctx);
      const userId = param(ctx, 'userId');
      if (!members(ctx.store).delete(memberKey(org.id, userId))) return false;
      for (const tm of teamMembers(ctx.store).where((t) => t.orgId === org.id && t.userId === userId))
        teamMembers(ctx.store).delete(tm.id);
      dropGrantsOfMember(ctx.store, org.id, userId);
      return true;
    },
    { deleted: noContent },
  ),
  listTeamsForOrganizationMember: route({
    method: 'GET',
    pattern: `${MEMBER}/teams`,
    handler: (ctx) => {
      // The member's teams (management-api.md: query title, a case-insensitive substring), in team order.
      const org = requireOrg(ctx);
      const m = requireMember(ctx, org.id);
      const title = queryString(ctx.query, 'title')?.toLowerCase();
      const list = teams(ctx.store)
        .where((t) => t.orgId === org.id && (title === undefined || t.title.toLowerCase().includes(title)))
        .flatMap((team) => {
          const tm = teamMembers(ctx.store).get(teamMemberKey(team.id, m.userId));
          return tm ? [{ team, role: tm.role }] : [];
        });
      return pageOf(ctx, list, (x) => ({ team: presentTeam(ctx, x.team), member: { role: x.role } }));
    },
  }),
  setUserAsSSOMemberForOrganization: route({
    method: 'POST',
    pattern: `${MEMBER}/sso`,
    handler: (ctx) => {
      const next: MemberRec = { ...requireMember(ctx, requireOrg(ctx).id), sso: true };
      members(ctx.store).put(next);
      return ok(presentMember(ctx, next));
    },
  }),
};
