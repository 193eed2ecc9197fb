/**
 * Spaces: list and create in an organization, get, patch, soft delete and restore. A deleted space keeps
 * its record with `deletedAt` for the retention period (hidden from lists, still readable by id, restorable);
 * after that it is purged and its id answers 404 (a repeated DELETE answers 204). Move (to another collection
 * or the top level, optionally before/after a sibling space) and transfer (to another organization); where spaces
 * and collections sit is content-order.ts.
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, noContent, notFound, ok, resetContent, type Reply } from '../http.js';
import type { SpaceRec } from '../records.js';
import { memberKey, members, spaces } from '../records.js';
import type { SandboxStore } from '../store.js';
import { isPlainObject, nullable, object, oneOf, string, type Validator } from '../validate.js';
import { defaultLevel, language, mergeRules } from '../validate-spec-fields.js';
import { dropPurgedSpace } from '../site-structure.js';
import { dropGrantsOn } from '../permission-records.js';
import { discussionCounts, dropSpaceContent } from '../content-records.js';
import { goneOr404, isOrgAdmin, requireOrg } from './common.js';
import {
  moveBody,
  moveTarget,
  orgOfNew,
  putMoved,
  refuseIfOnSite,
  transferBody,
  transferTarget,
  type MoveBody,
} from './content-order.js';
import { create, list, newId, read, update, written } from './crud.js';
import { route, type RouteTable } from './table.js';

export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const ONE = '/v1/spaces/:spaceId';

const SPACE_PERMISSIONS = [
  'view',
  'access',
  'admin',
  'viewInviteLinks',
  'edit',
  'triggerGitSync',
  'comment',
  'merge',
  'review',
  'installIntegration',
];

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
    mergeRules: structuredClone(s.mergeRules ?? { type: 'inherit' }),
    urls: {
      location: ctx.apiUrl(`/spaces/${s.id}`),
      app: ctx.appUrl(`/o/${s.orgId}/s/${s.id}`),
      ...(s.icon !== undefined ? { icon: s.icon } : {}),
    },
    organization: s.orgId,
    ...(s.parent !== undefined ? { parent: s.parent } : {}),
    revision: s.revision,
    defaultLevel: s.defaultLevel,
    ...(s.language !== undefined ? { language: s.language } : {}),
    ...discussionCounts(ctx.store, s.id),
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
      dropSpaceContent(ctx.store, s.id);
      dropGrantsOn(ctx.store, 'space', [s.id]);
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

export function requireSpace(ctx: RequestContext, opts: { active: boolean }): SpaceRec {
  const s = findSpace(ctx);
  if (!s || (opts.active && s.deletedAt !== undefined)) throw notFound(`space "${param(ctx, 'spaceId')}" not found`);
  return s;
}

const title = string({ max: 50 });
const emoji = string({ max: 50 });
const editMode = oneOf(['live', 'locked']);
const literalTrue: Validator<true> = (v, path) => {
  if (v !== true) throw badRequest(`${path}: must be true`);
  return true;
};
/**
 * The spec's CreateSpace: the listed fields plus one of `template`, `computedSource` or `empty: true` (how the
 * content starts). The sandbox holds no content, so those three are accepted and change nothing it can show;
 * their inner shape is the spec schema's business (spec-bodies.ts).
 */
const anyObject: Validator<Record<string, unknown>> = (v, path) => {
  if (!isPlainObject(v)) throw badRequest(`${path}: must be an object`);
  return v;
};
const createSpace = object({
  title,
  emoji,
  parent: string(),
  editMode,
  language,
  template: anyObject,
  computedSource: anyObject,
  empty: literalTrue,
});
/** The spec's UpdateSpace: at most one of emoji / icon is set; both null (or either null) clear it. */
const patchSpace = object({
  title,
  emoji: nullable(emoji),
  icon: nullable(string({ max: 2048, format: 'uri' })),
  editMode,
  defaultLevel,
  language,
  mergeRules: mergeRules(true),
});

/** A space inside a collection is `in-collection`, a top-level one `private` (other visibilities are kept). */
export function visibilityFor(s: SpaceRec, parent: string | undefined): SpaceRec['visibility'] {
  if (parent !== undefined && s.visibility === 'private') return 'in-collection';
  if (parent === undefined && s.visibility === 'in-collection') return 'private';
  return s.visibility;
}

function moveSpace(ctx: RequestContext, b: MoveBody): Reply {
  const s = requireSpace(ctx, { active: true });
  const target = moveTarget(ctx, s.orgId, s.id, s.parent, b);
  const next: SpaceRec = { ...s, visibility: visibilityFor(s, target.parent), updatedAt: ctx.now().toISOString() };
  return ok(presentSpace(ctx, putMoved(ctx, spaces(ctx.store), s, next, target)));
}

function transferSpace(ctx: RequestContext, b: { organization: string }): Reply {
  const s = requireSpace(ctx, { active: true });
  const target = transferTarget(ctx, b.organization, { kind: 'space', id: s.id, orgId: s.orgId });
  refuseIfOnSite(ctx, new Set([s.id]));
  const next: SpaceRec = {
    ...s,
    orgId: target,
    visibility: visibilityFor(s, undefined),
    updatedAt: ctx.now().toISOString(),
  };
  delete next.parent;
  spaces(ctx.store).put(next);
  dropGrantsOn(ctx.store, 'space', [s.id]); // its teams and members belong to the old organization
  return ok(presentSpace(ctx, next));
}

export const spaceRoutes: RouteTable = {
  listSpacesInOrganizationById: list(
    '/v1/orgs/:organizationId/spaces',
    (ctx) => {
      const org = requireOrg(ctx);
      sweepExpiredSpaces(ctx);
      return activeSpaces(ctx.store).filter((s) => s.orgId === org.id);
    },
    presentSpace,
  ),
  createSpace: create(
    '/v1/orgs/:organizationId/spaces',
    createSpace,
    (ctx, b) => {
      const org = orgOfNew(ctx, b.parent);
      const id = newId(ctx, spaces(ctx.store), 'sp', 'space');
      const now = ctx.now().toISOString();
      return spaces(ctx.store).put({
        id,
        orgId: org.id,
        title: b.title ?? 'Untitled',
        emoji: b.emoji ?? '',
        visibility: b.parent ? 'in-collection' : 'private',
        editMode: b.editMode ?? 'live',
        ...(b.parent ? { parent: b.parent } : {}),
        ...(b.language !== undefined ? { language: b.language } : {}),
        defaultLevel: null,
        revision: `rev-${id}`,
        createdAt: now,
        updatedAt: now,
      });
    },
    presentSpace,
    { location: (s) => `/spaces/${s.id}`, bodyOptional: true },
  ),
  getSpaceById: read(ONE, (ctx) => requireSpace(ctx, { active: false }), presentSpace),
  updateSpaceById: update(
    ONE,
    patchSpace,
    (ctx, b) => {
      const next: SpaceRec = { ...requireSpace(ctx, { active: true }), updatedAt: ctx.now().toISOString() };
      if (typeof b.emoji === 'string' && typeof b.icon === 'string')
        throw badRequest('body: give at most one of emoji, icon');
      // Setting one of emoji / icon replaces the other; null clears it.
      if (typeof b.emoji === 'string') {
        next.emoji = b.emoji;
        delete next.icon;
      } else if (typeof b.icon === 'string') {
        next.icon = b.icon;
        next.emoji = '';
      }
      if (b.emoji === null) next.emoji = '';
      if (b.icon === null) delete next.icon;
      return spaces(ctx.store).put(written(next, b, ['title', 'editMode', 'defaultLevel', 'language', 'mergeRules']));
    },
    presentSpace,
  ),
  deleteSpaceById: route({
    method: 'DELETE',
    pattern: ONE,
    handler: (ctx) => {
      const s = findSpace(ctx);
      if (s && s.deletedAt === undefined) {
        softDeleteSpace(ctx, s);
        return resetContent();
      }
      return s ? noContent() : goneOr404(ctx, 'space', 'spaceId'); // already deleted
    },
  }),
  restoreSpace: route({
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
  }),
  moveSpace: route({ method: 'POST', pattern: `${ONE}/move`, body: moveBody, handler: moveSpace }),
  transferSpace: route({ method: 'POST', pattern: `${ONE}/transfer`, body: transferBody, handler: transferSpace }),
};
