/**
 * Spaces: list and create in an organization, get, patch, soft delete and restore. A deleted space keeps
 * its record with `deletedAt` for the retention period (hidden from lists, still readable by id, restorable);
 * after that it is purged and its id answers 404 (a repeated DELETE answers 204).
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, created, noContent, notFound, ok, resetContent } from '../http.js';
import { pageOf } from '../paginate.js';
import type { SpaceRec } from '../records.js';
import { MEMBER_ROLES, collections, memberKey, members, spaces } from '../records.js';
import type { SandboxStore } from '../store.js';
import { nullable, object, oneOf, string } from '../validate.js';
import { dropPurgedSpace } from '../site-structure.js';
import { isOrgAdmin, requireOrg, type RouteModule } from './common.js';

export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const ONE = '/v1/spaces/:spaceId';

const SPACE_PERMISSIONS = ['view', 'access', 'admin', 'viewInviteLinks', 'edit', 'triggerGitSync', 'comment', 'merge', 'review', 'installIntegration'];

export function presentSpace(ctx: RequestContext, s: SpaceRec): Record<string, unknown> {
  const admin = isOrgAdmin(ctx, s.orgId);
  return {
    object: 'space',
    id: s.id,
    title: s.title,
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.deletedAt ? { deletedAt: s.deletedAt } : {}),
    editMode: s.editMode,
    mergeRules: { type: 'inherit' },
    urls: { location: ctx.apiUrl(`/spaces/${s.id}`), app: ctx.appUrl(`/o/${s.orgId}/s/${s.id}`) },
    organization: s.orgId,
    ...(s.parent !== undefined ? { parent: s.parent } : {}),
    revision: s.revision,
    defaultLevel: s.defaultLevel,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: Object.fromEntries(SPACE_PERMISSIONS.map((p) => [p, admin || p === 'view' || p === 'access'])),
  };
}

export const activeSpaces = (store: SandboxStore): SpaceRec[] => spaces(store).where((s) => s.deletedAt === undefined);

/** Purge spaces whose retention ran out (by the injectable clock). */
export function sweepExpiredSpaces(ctx: RequestContext): void {
  const now = ctx.now().getTime();
  for (const s of spaces(ctx.store).all()) {
    if (s.deletedAt !== undefined && now - Date.parse(s.deletedAt) > SPACE_RETENTION_MS) {
      spaces(ctx.store).delete(s.id);
      dropPurgedSpace(ctx.store, s.id);
      ctx.store.bury('space', s.id);
    }
  }
}

export function softDeleteSpace(ctx: RequestContext, s: SpaceRec): void {
  spaces(ctx.store).put({ ...s, deletedAt: ctx.now().toISOString() });
}

/** The space named by `:spaceId` (deleted or not, once expired ones are purged), if the caller may see it. */
function findSpace(ctx: RequestContext): SpaceRec | undefined {
  sweepExpiredSpaces(ctx);
  const s = spaces(ctx.store).get(param(ctx, 'spaceId'));
  return s && members(ctx.store).has(memberKey(s.orgId, ctx.userId)) ? s : undefined;
}

function requireSpace(ctx: RequestContext, opts: { active: boolean }): SpaceRec {
  const s = findSpace(ctx);
  if (!s || (opts.active && s.deletedAt !== undefined)) throw notFound(`space "${param(ctx, 'spaceId')}" not found`);
  return s;
}

const title = string({ max: 50 });
const emoji = string({ max: 50 });
const editMode = oneOf(['live', 'locked']);
const createSpace = object({ title, emoji, parent: string(), editMode });
const patchSpace = object({ title, emoji, editMode, defaultLevel: nullable(oneOf(MEMBER_ROLES)) });

export const spaceRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: '/v1/orgs/:organizationId/spaces',
    handler: (ctx) => {
      const org = requireOrg(ctx);
      sweepExpiredSpaces(ctx);
      return pageOf(ctx, activeSpaces(ctx.store).filter((s) => s.orgId === org.id), (s) => presentSpace(ctx, s));
    },
  });
  router.add({
    method: 'POST',
    pattern: '/v1/orgs/:organizationId/spaces',
    body: createSpace,
    bodyOptional: true,
    handler: (ctx, b) => {
      const org = requireOrg(ctx);
      if (b.parent !== undefined && collections(ctx.store).get(b.parent)?.orgId !== org.id)
        throw badRequest(`body.parent: collection "${b.parent}" not found in organization "${org.id}"`);
      const id = ctx.store.nextId('sp', (x) => spaces(ctx.store).has(x) || ctx.store.isBuried('space', x));
      const now = ctx.now().toISOString();
      const s = spaces(ctx.store).put({
        id,
        orgId: org.id,
        title: b.title ?? 'Untitled',
        emoji: b.emoji ?? '',
        visibility: b.parent ? 'in-collection' : 'private',
        editMode: b.editMode ?? 'live',
        ...(b.parent ? { parent: b.parent } : {}),
        defaultLevel: null,
        revision: `rev-${id}`,
        createdAt: now,
        updatedAt: now,
      });
      return { ...created(presentSpace(ctx, s)), headers: { location: ctx.apiUrl(`/spaces/${id}`) } };
    },
  });
  router.add({ method: 'GET', pattern: ONE, handler: (ctx) => ok(presentSpace(ctx, requireSpace(ctx, { active: false }))) });
  router.add({
    method: 'PATCH',
    pattern: ONE,
    body: patchSpace,
    handler: (ctx, b) => {
      const next: SpaceRec = { ...requireSpace(ctx, { active: true }), updatedAt: ctx.now().toISOString() };
      if (b.title !== undefined) next.title = b.title;
      if (b.emoji !== undefined) next.emoji = b.emoji;
      if (b.editMode !== undefined) next.editMode = b.editMode;
      if (b.defaultLevel !== undefined) next.defaultLevel = b.defaultLevel;
      spaces(ctx.store).put(next);
      return ok(presentSpace(ctx, next));
    },
  });
  router.add({
    method: 'DELETE',
    pattern: ONE,
    handler: (ctx) => {
      const s = findSpace(ctx);
      if (s && s.deletedAt === undefined) {
        softDeleteSpace(ctx, s);
        return resetContent();
      }
      if (s || ctx.store.isBuried('space', param(ctx, 'spaceId'))) return noContent(); // already deleted
      throw notFound(`space "${param(ctx, 'spaceId')}" not found`);
    },
  });
  router.add({
    method: 'POST',
    pattern: `${ONE}/restore`,
    handler: (ctx) => {
      const s = requireSpace(ctx, { active: false });
      if (s.deletedAt === undefined) throw badRequest(`space "${s.id}" is not deleted`);
      const { deletedAt: _gone, ...rest } = s;
      const restored: SpaceRec = { ...rest, updatedAt: ctx.now().toISOString() };
      spaces(ctx.store).put(restored);
      return ok(presentSpace(ctx, restored));
    },
  });
};
