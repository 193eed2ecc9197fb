/** Lookups and presenters shared by several resource modules. */
import { param, type RequestContext } from '../context.js';
import { noContent, notFound, type Reply } from '../http.js';
import type { MemberRec, OrgRec, UserRec } from '../records.js';
import { memberKey, members, orgs, users } from '../records.js';
import { teamCountOf } from '../team-index.js';
import { memberGrantCounts } from '../permission-records.js';
import type { Table } from '../store.js';

/** The organization named by `:organizationId`, visible only to its members (else 404 like an unknown id). */
export function requireOrg(ctx: RequestContext): OrgRec {
  const id = param(ctx, 'organizationId');
  const org = orgs(ctx.store).get(id);
  if (!org || !members(ctx.store).has(memberKey(id, ctx.userId))) throw notFound(`organization "${id}" not found`);
  return org;
}

export function isOrgAdmin(ctx: RequestContext, orgId: string): boolean {
  return members(ctx.store).get(memberKey(orgId, ctx.userId))?.role === 'admin';
}

export function requireUser(ctx: RequestContext, id: string): UserRec {
  const user = users(ctx.store).get(id);
  if (!user) throw new Error(`store is inconsistent: user ${id} is referenced but missing`);
  return user;
}

export function presentUser(ctx: RequestContext, user: UserRec): Record<string, unknown> {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: ctx.apiUrl(`/users/${encodeURIComponent(user.id)}`) },
  };
}

export function presentMember(ctx: RequestContext, m: MemberRec): Record<string, unknown> {
  const teamCount = teamCountOf(ctx.store, m.orgId, m.userId);
  const granted = memberGrantCounts(ctx.store, m.orgId, m.userId);
  return {
    object: 'member',
    id: m.userId,
    role: m.role,
    user: presentUser(ctx, requireUser(ctx, m.userId)),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
    ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
    sso: m.sso,
    spaces: granted.spaces,
    teams: teamCount,
    sites: granted.sites,
  };
}

/** Every permission flag true for org admins, only `view` for everyone else. */
export function permissionFlags(
  admin: boolean,
  names: readonly string[],
  alwaysTrue: readonly string[] = ['view'],
): Record<string, boolean> {
  return Object.fromEntries(names.map((n) => [n, admin || alwaysTrue.includes(n)]));
}

/** The rows of the path's organization (404 when the caller is not its member). */
export function inOrg<R extends { orgId: string }>(
  ctx: RequestContext,
  table: { where(pred: (row: R) => boolean): R[] },
): R[] {
  const org = requireOrg(ctx);
  return table.where((row) => row.orgId === org.id);
}

/** The row of `table` that path parameter `idParam` names, if it belongs to the path's organization (404 when the caller is not its member). */
export function findInOrg<R extends { id: string; orgId: string }>(
  ctx: RequestContext,
  table: Table<R>,
  idParam: string,
): R | undefined {
  const org = requireOrg(ctx);
  const row = table.get(param(ctx, idParam));
  return row?.orgId === org.id ? row : undefined;
}

/** The row findInOrg finds, or 404 naming `what` and the organization. */
export function requireInOrg<R extends { id: string; orgId: string }>(
  ctx: RequestContext,
  table: Table<R>,
  idParam: string,
  what: string,
): R {
  const row = findInOrg(ctx, table, idParam);
  if (!row)
    throw notFound(`${what} "${param(ctx, idParam)}" not found in organization "${param(ctx, 'organizationId')}"`);
  return row;
}

/** A DELETE of nothing: 204 when the path's id was deleted before (the store buries it), else 404. */
export function goneOr404(ctx: RequestContext, kind: string, idParam: string): Reply {
  if (ctx.store.isBuried(kind, param(ctx, idParam))) return noContent();
  throw notFound(`${kind} "${param(ctx, idParam)}" not found`);
}
