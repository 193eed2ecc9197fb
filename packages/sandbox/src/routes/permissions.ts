/**
 * Content permissions of spaces, collections and sites, as the official spec lists them (management-api.md does
 * not describe them): list the teams / the users holding a role, grant roles in bulk (POST …/permissions), change
 * one team's or user's role (PATCH), take it away (DELETE). Plus `GET /orgs/{o}/members/{userId}/spaces`
 * (management-api.md), the spaces a member reaches through their grants and their teams'.
 *
 * Roles are the member role enum, or `null` (the spec's MemberRoleOrGuest: a guest, no access) where the spec's
 * bodies allow it: on a site it is stored as an override that takes access away (the site lists may show null); on
 * spaces and collections the lists cannot show it (their `permission` is a non-null MemberRole), so a null role
 * takes the principal's grant away, as DELETE does. See docs/dev/api-differences.md §5.1.
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, noContent, notFound, resetContent, type Reply } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryEnum } from '../query.js';
import type { MemberRole } from '../records.js';
import { MEMBER_ROLES, collections, memberKey, members, spaces, teams } from '../records.js';
import {
  grantKey,
  grants,
  grantsOn,
  memberSpaceRoles,
  type GrantPrincipal,
  type GrantRec,
  type GrantTarget,
} from '../permission-records.js';
import type { RouteDef } from '../router.js';
import { array, nullable, object, oneOf, string, type Validator } from '../validate.js';
import { presentUser, requireOrg, requireUser } from './common.js';
import { SITE, requireSite } from './site-common.js';
import { presentSpace, sweepExpiredSpaces } from './spaces.js';
import { presentTeam } from './teams.js';
import { route, tableOf, type RouteTable } from './table.js';

/** The object whose permissions a request is about. */
interface Target {
  type: GrantTarget;
  id: string;
  orgId: string;
}

interface TargetKind {
  type: GrantTarget;
  /** Route pattern of `…/permissions`. */
  base: string;
  resolve(ctx: RequestContext): Target;
  /** What a null role does: `store` an override without access (sites), `revoke` the grant (spaces, collections). */
  nullRole: 'store' | 'revoke';
}

function requireSpaceTarget(ctx: RequestContext): Target {
  sweepExpiredSpaces(ctx);
  const id = param(ctx, 'spaceId');
  const s = spaces(ctx.store).get(id);
  // A deleted space keeps its grants (a restore brings them back) but they cannot be read or changed meanwhile.
  if (!s || s.deletedAt !== undefined || !members(ctx.store).has(memberKey(s.orgId, ctx.userId)))
    throw notFound(`space "${id}" not found`);
  return { type: 'space', id: s.id, orgId: s.orgId };
}

function requireCollectionTarget(ctx: RequestContext): Target {
  const id = param(ctx, 'collectionId');
  const c = collections(ctx.store).get(id);
  if (!c || !members(ctx.store).has(memberKey(c.orgId, ctx.userId))) throw notFound(`collection "${id}" not found`);
  return { type: 'collection', id: c.id, orgId: c.orgId };
}

const TARGETS: TargetKind[] = [
  { type: 'space', base: '/v1/spaces/:spaceId/permissions', resolve: requireSpaceTarget, nullRole: 'revoke' },
  {
    type: 'collection',
    base: '/v1/collections/:collectionId/permissions',
    resolve: requireCollectionTarget,
    nullRole: 'revoke',
  },
  {
    type: 'site',
    base: `${SITE}/permissions`,
    resolve: (ctx) => {
      const site = requireSite(ctx);
      return { type: 'site', id: site.id, orgId: site.orgId };
    },
    nullRole: 'store',
  },
];

const memberRole = oneOf(MEMBER_ROLES);
const roleOrGuest = nullable(memberRole);

const ids = array(string({ min: 1 }));

/** InviteUsersAndTeams / InviteSiteUsersAndTeams: `role` (required) and at least one non-empty `teams` or `users`. */
const inviteShape = object({ role: roleOrGuest, teams: ids, users: ids }, ['role']);
const inviteBody: Validator<{ role: MemberRole | null; teams?: string[]; users?: string[] }> = (v, path) => {
  const b = inviteShape(v, path);
  for (const field of ['teams', 'users'] as const) {
    if (b[field]?.length === 0) throw badRequest(`${path}.${field}: must have at least 1 item`);
  }
  if (b.teams === undefined && b.users === undefined)
    throw badRequest(`${path}: must have at least one of teams, users`);
  return b;
};

/** PATCH body: `role` optional (as in the spec); sites take MemberRole only, spaces and collections MemberRoleOrGuest. */
const patchBody = (kind: TargetKind): Validator<{ role?: MemberRole | null }> =>
  object({ role: kind.nullRole === 'store' ? memberRole : roleOrGuest });

/** Write `role` for one principal: a row, or (a null role where null revokes) no row. */
function setGrant(ctx: RequestContext, kind: TargetKind, row: GrantRec): void {
  if (row.role === null && kind.nullRole === 'revoke') grants(ctx.store).delete(row.id);
  else grants(ctx.store).put(row);
}

function principalExists(ctx: RequestContext, target: Target, type: GrantPrincipal, id: string): boolean {
  if (type === 'user') return members(ctx.store).has(memberKey(target.orgId, id));
  return teams(ctx.store).get(id)?.orgId === target.orgId;
}

const principalLabel = (type: GrantPrincipal, id: string, target: Target): string =>
  `${type === 'team' ? 'team' : 'member'} "${id}" not found in organization "${target.orgId}"`;

/** The principal's grant on the target; 404 when the principal is unknown or holds none (spec: "No team found"). */
function requireGrant(ctx: RequestContext, target: Target, type: GrantPrincipal, id: string): GrantRec {
  if (!principalExists(ctx, target, type, id)) throw notFound(principalLabel(type, id, target));
  const g = grants(ctx.store).get(grantKey(target.type, target.id, type, id));
  if (!g) throw notFound(`${type} "${id}" has no permission on ${target.type} "${target.id}"`);
  return g;
}

function invite(
  ctx: RequestContext,
  kind: TargetKind,
  b: { role: MemberRole | null; teams?: string[]; users?: string[] },
): Reply {
  const target = kind.resolve(ctx);
  const wanted: [GrantPrincipal, string][] = [
    ...[...new Set(b.teams ?? [])].map((id): [GrantPrincipal, string] => ['team', id]),
    ...[...new Set(b.users ?? [])].map((id): [GrantPrincipal, string] => ['user', id]),
  ];
  // All or nothing: every id is checked before anything is written (spec: 404 "No team or user with the provided Id").
  for (const [type, id] of wanted)
    if (!principalExists(ctx, target, type, id)) throw notFound(principalLabel(type, id, target));
  for (const [type, id] of wanted) {
    // An existing grant takes the new role in place (it keeps its position in the lists).
    setGrant(ctx, kind, {
      id: grantKey(target.type, target.id, type, id),
      orgId: target.orgId,
      targetType: target.type,
      targetId: target.id,
      principalType: type,
      principalId: id,
      role: b.role,
    });
  }
  return noContent();
}

function listPrincipals(ctx: RequestContext, kind: TargetKind, type: GrantPrincipal): Reply {
  const target = kind.resolve(ctx);
  return pageOf(ctx, grantsOn(ctx.store, target.type, target.id, type), (g) => {
    if (type === 'user') return { permission: g.role, user: presentUser(ctx, requireUser(ctx, g.principalId)) };
    const team = teams(ctx.store).get(g.principalId);
    if (!team) throw new Error(`store is inconsistent: team ${g.principalId} holds a grant but is missing`);
    return { permission: g.role, team: presentTeam(ctx, team) };
  });
}

/** The spec's name of a target in its operation ids: inviteToSpace, listTeamPermissionsInCollection … */
const NOUN: Record<GrantTarget, string> = { space: 'Space', collection: 'Collection', site: 'Site' };
const PRINCIPAL = { team: 'Team', user: 'User' } as const;

/** The seven operations on one kind of target's permissions, under the spec's operation ids. */
function targetRoutes(kind: TargetKind): RouteTable {
  const noun = NOUN[kind.type];
  const table: Record<string, RouteDef> = {
    [`inviteTo${noun}`]: route({
      method: 'POST',
      pattern: kind.base,
      body: inviteBody,
      handler: (ctx, b) => invite(ctx, kind, b),
    }),
  };
  for (const type of ['team', 'user'] as const) {
    const list = `${kind.base}/${type}s`;
    const one = `${list}/:${type}Id`;
    const who = PRINCIPAL[type];
    table[`list${who}PermissionsIn${noun}`] = route({
      method: 'GET',
      pattern: list,
      handler: (ctx) => listPrincipals(ctx, kind, type),
    });
    table[`update${who}PermissionIn${noun}`] = route({
      method: 'PATCH',
      pattern: one,
      body: patchBody(kind),
      handler: (ctx, b) => {
        const g = requireGrant(ctx, kind.resolve(ctx), type, param(ctx, `${type}Id`));
        if (b.role !== undefined) setGrant(ctx, kind, { ...g, role: b.role });
        return noContent();
      },
    });
    table[`remove${who}From${noun}`] = route({
      method: 'DELETE',
      pattern: one,
      handler: (ctx) => {
        const target = kind.resolve(ctx);
        // 205 removed, 204 nothing to remove (the spec's two statuses); an unknown team or user is "nothing" too.
        return grants(ctx.store).delete(grantKey(target.type, target.id, type, param(ctx, `${type}Id`)))
          ? resetContent()
          : noContent();
      },
    });
  }
  return table;
}

export const permissionRoutes: RouteTable = tableOf(...TARGETS.map(targetRoutes), {
  listSpacesForOrganizationMember: route({
    method: 'GET',
    pattern: '/v1/orgs/:organizationId/members/:userId/spaces',
    handler: (ctx) => {
      // management-api.md: `{permission, space}` per space the member may access: their grants and their teams'.
      const org = requireOrg(ctx);
      const userId = param(ctx, 'userId');
      if (!members(ctx.store).has(memberKey(org.id, userId)))
        throw notFound(`member "${userId}" not found in organization "${org.id}"`);
      const order = queryEnum(ctx.query, 'order', ['asc', 'desc']) ?? 'desc';
      sweepExpiredSpaces(ctx);
      const list = [...memberSpaceRoles(ctx.store, org.id, userId)].flatMap(([id, role]) => {
        const space = spaces(ctx.store).get(id);
        return space ? [{ role, space }] : [];
      });
      if (order === 'desc') list.reverse(); // newest grant first, like the members list's default order
      return pageOf(ctx, list, (x) => ({ permission: x.role, space: presentSpace(ctx, x.space) }));
    },
  }),
});
