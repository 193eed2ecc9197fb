/**
 * Content permissions of spaces, collections and sites, as the official spec lists them (management-api.md does
 * not describe them): list the teams / the users holding a role, grant roles in bulk (POST …/permissions), change
 * one team's or user's role (PATCH), take it away (DELETE). Plus `GET /orgs/{o}/members/{userId}/spaces`
 * (management-api.md), the member's direct space grants.
 *
 * Roles are the member role enum. The spec's bodies allow `null` (MemberRoleOrGuest) in places: on a site it is
 * stored as an override that takes access away (the site lists may show null); on spaces and collections the
 * lists cannot show it (their `permission` is a non-null MemberRole), so null is refused there — DELETE removes
 * access. See docs/dev/api-differences.md §5.
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, noContent, notFound, resetContent, type Reply } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryEnum } from '../query.js';
import type { MemberRole } from '../records.js';
import { MEMBER_ROLES, collections, memberKey, members, spaces, teams } from '../records.js';
import { grantKey, grants, grantsOn, type GrantPrincipal, type GrantRec, type GrantTarget } from '../permission-records.js';
import type { Router } from '../router.js';
import { array, object, oneOf, string, type Validator } from '../validate.js';
import { presentUser, requireOrg, requireUser, type RouteModule } from './common.js';
import { SITE, requireSite } from './site-common.js';
import { presentSpace, sweepExpiredSpaces } from './spaces.js';
import { presentTeam } from './teams.js';

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
  /** Whether a null role (an override without access) may be granted: sites only. */
  nullRole: boolean;
}

function requireSpaceTarget(ctx: RequestContext): Target {
  sweepExpiredSpaces(ctx);
  const id = param(ctx, 'spaceId');
  const s = spaces(ctx.store).get(id);
  // A deleted space keeps its grants (a restore brings them back) but they cannot be read or changed meanwhile.
  if (!s || s.deletedAt !== undefined || !members(ctx.store).has(memberKey(s.orgId, ctx.userId))) throw notFound(`space "${id}" not found`);
  return { type: 'space', id: s.id, orgId: s.orgId };
}

function requireCollectionTarget(ctx: RequestContext): Target {
  const id = param(ctx, 'collectionId');
  const c = collections(ctx.store).get(id);
  if (!c || !members(ctx.store).has(memberKey(c.orgId, ctx.userId))) throw notFound(`collection "${id}" not found`);
  return { type: 'collection', id: c.id, orgId: c.orgId };
}

const TARGETS: TargetKind[] = [
  { type: 'space', base: '/v1/spaces/:spaceId/permissions', resolve: requireSpaceTarget, nullRole: false },
  { type: 'collection', base: '/v1/collections/:collectionId/permissions', resolve: requireCollectionTarget, nullRole: false },
  {
    type: 'site',
    base: `${SITE}/permissions`,
    resolve: (ctx) => {
      const site = requireSite(ctx);
      return { type: 'site', id: site.id, orgId: site.orgId };
    },
    nullRole: true,
  },
];

const memberRole = oneOf(MEMBER_ROLES);

/** A role on a space or collection: the enum; null is named in the refusal because the spec's schema allows it. */
function contentRole(type: GrantTarget): Validator<MemberRole> {
  return (v, path) => {
    if (v === null) throw badRequest(`${path}: null (guest) is not a role on a ${type}; remove access with DELETE on the team or user instead`);
    return memberRole(v, path);
  };
}

const ids = array(string({ min: 1 }));

/** InviteUsersAndTeams / InviteSiteUsersAndTeams: `role` (required) and at least one non-empty `teams` or `users`. */
function inviteBody(kind: TargetKind): Validator<{ role: MemberRole | null; teams?: string[]; users?: string[] }> {
  const role: Validator<MemberRole | null> = kind.nullRole ? (v, path) => (v === null ? null : memberRole(v, path)) : contentRole(kind.type);
  const shape = object({ role, teams: ids, users: ids }, ['role']);
  return (v, path) => {
    const b = shape(v, path);
    for (const field of ['teams', 'users'] as const) {
      if (b[field]?.length === 0) throw badRequest(`${path}.${field}: must have at least 1 item`);
    }
    if (b.teams === undefined && b.users === undefined) throw badRequest(`${path}: must have at least one of teams, users`);
    return b;
  };
}

/** PATCH body: `role` optional (as in the spec); sites take MemberRole only, spaces and collections refuse null. */
const patchBody = (kind: TargetKind): Validator<{ role?: MemberRole }> =>
  object({ role: kind.type === 'site' ? memberRole : contentRole(kind.type) });

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

function invite(ctx: RequestContext, kind: TargetKind, b: { role: MemberRole | null; teams?: string[]; users?: string[] }): Reply {
  const target = kind.resolve(ctx);
  const wanted: [GrantPrincipal, string][] = [
    ...[...new Set(b.teams ?? [])].map((id): [GrantPrincipal, string] => ['team', id]),
    ...[...new Set(b.users ?? [])].map((id): [GrantPrincipal, string] => ['user', id]),
  ];
  // All or nothing: every id is checked before anything is written (spec: 404 "No team or user with the provided Id").
  for (const [type, id] of wanted) if (!principalExists(ctx, target, type, id)) throw notFound(principalLabel(type, id, target));
  for (const [type, id] of wanted) {
    // An existing grant takes the new role in place (it keeps its position in the lists).
    const row: GrantRec = { id: grantKey(target.type, target.id, type, id), orgId: target.orgId, targetType: target.type, targetId: target.id, principalType: type, principalId: id, role: b.role };
    grants(ctx.store).put(row);
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

function registerTarget(router: Router, kind: TargetKind): void {
  router.add({ method: 'POST', pattern: kind.base, body: inviteBody(kind), handler: (ctx, b) => invite(ctx, kind, b) });
  for (const type of ['team', 'user'] as const) {
    const list = `${kind.base}/${type}s`;
    const one = `${list}/:${type}Id`;
    router.add({ method: 'GET', pattern: list, handler: (ctx) => listPrincipals(ctx, kind, type) });
    router.add({
      method: 'PATCH',
      pattern: one,
      body: patchBody(kind),
      handler: (ctx, b) => {
        const g = requireGrant(ctx, kind.resolve(ctx), type, param(ctx, `${type}Id`));
        if (b.role !== undefined) grants(ctx.store).put({ ...g, role: b.role });
        return noContent();
      },
    });
    router.add({
      method: 'DELETE',
      pattern: one,
      handler: (ctx) => {
        const target = kind.resolve(ctx);
        // 205 removed, 204 nothing to remove (the spec's two statuses); an unknown team or user is "nothing" too.
        return grants(ctx.store).delete(grantKey(target.type, target.id, type, param(ctx, `${type}Id`))) ? resetContent() : noContent();
      },
    });
  }
}

export const permissionRoutes: RouteModule = (router) => {
  for (const kind of TARGETS) registerTarget(router, kind);
  router.add({
    method: 'GET',
    pattern: '/v1/orgs/:organizationId/members/:userId/spaces',
    handler: (ctx) => {
      // management-api.md: `{permission, space}` per space the member may access; here, their direct grants.
      const org = requireOrg(ctx);
      const userId = param(ctx, 'userId');
      if (!members(ctx.store).has(memberKey(org.id, userId))) throw notFound(`member "${userId}" not found in organization "${org.id}"`);
      const order = queryEnum(ctx.query, 'order', ['asc', 'desc']) ?? 'desc';
      sweepExpiredSpaces(ctx);
      const list = grants(ctx.store).all().flatMap((g) => {
        if (g.targetType !== 'space' || g.principalType !== 'user' || g.principalId !== userId || g.orgId !== org.id || g.role === null) return [];
        const space = spaces(ctx.store).get(g.targetId);
        return space && space.deletedAt === undefined ? [{ role: g.role, space }] : [];
      });
      if (order === 'desc') list.reverse(); // newest grant first, like the members list's default order
      return pageOf(ctx, list, (x) => ({ permission: x.role, space: presentSpace(ctx, x.space) }));
    },
  });
};
