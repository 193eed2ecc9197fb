/**
 * Spaces: list and create in an organization, get, patch, soft delete and restore. A deleted space keeps
 * its record with `deletedAt` for the retention period (hidden from lists, still readable by id, restorable);
 * after that it is purged and its id answers 404 (a repeated DELETE answers 204). Move (to another collection
 * or the top level, optionally before/after a sibling space) and transfer (to another organization). The
 * order of a parent's content, which collection moves share, lives here because collections.ts imports this file.
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, conflict, created, noContent, notFound, ok, resetContent, type Reply } from '../http.js';
import type { SpaceRec } from '../records.js';
import { collections, memberKey, members, orgs, spaces } from '../records.js';
import { siteSpaces } from '../site-records.js';
import type { SandboxStore, Table } from '../store.js';
import { isPlainObject, literal, nullable, object, oneOf, string, type Validator } from '../validate.js';
import { defaultLevel, language, mergeRules } from '../validate-spec-fields.js';
import { dropPurgedSpace } from '../site-structure.js';
import { dropGrantsOn } from '../permission-records.js';
import { discussionCounts, dropSpaceContent } from '../content-records.js';
import { goneOr404, isOrgAdmin, requireOrg } from './common.js';
import { list, read, update, written } from './crud.js';
import { route, type RouteTable } from './table.js';

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
const createSpace = object({ title, emoji, parent: string(), editMode, language, template: anyObject, computedSource: anyObject, empty: literalTrue });
/** The spec's UpdateSpace: at most one of emoji / icon is set; both null (or either null) clear it. */
const patchSpace = object({
  title, emoji: nullable(emoji), icon: nullable(string({ max: 2048, format: 'uri' })), editMode, defaultLevel, language, mergeRules: mergeRules(true),
});

/**
 * The order of the spaces and collections directly inside a parent (a collection, or an organization's top
 * level): a stored list, written whenever a move places something. Children that joined later without a move
 * (new ones) follow it in insertion order.
 */
interface ContentOrderRec {
  id: string;
  items: string[];
}
const contentOrder = (s: SandboxStore): Table<ContentOrderRec> => s.table('contentOrder');
const containerKey = (orgId: string, parent: string | undefined): string => parent ?? `org:${orgId}`;

/** Ids of the collections and active spaces directly inside `parent` (undefined = top level), in order. */
export function orderedContent(store: SandboxStore, orgId: string, parent: string | undefined): string[] {
  const children = [
    ...collections(store).where((c) => c.orgId === orgId && c.parent === parent).map((c) => c.id),
    ...activeSpaces(store).filter((s) => s.orgId === orgId && s.parent === parent).map((s) => s.id),
  ];
  const present = new Set(children);
  const stored = (contentOrder(store).get(containerKey(orgId, parent))?.items ?? []).filter((id) => present.has(id));
  const listed = new Set(stored);
  return [...stored, ...children.filter((id) => !listed.has(id))];
}

export interface ContentPosition {
  before?: string;
  after?: string;
}

/** Put `item` (already inside `parent`) before/after a sibling, or at the end. */
export function placeContent(store: SandboxStore, orgId: string, parent: string | undefined, item: string, position: ContentPosition = {}): void {
  const list = orderedContent(store, orgId, parent).filter((id) => id !== item);
  const anchor = position.before ?? position.after;
  const at = anchor === undefined ? list.length : list.indexOf(anchor) + (position.after !== undefined ? 1 : 0);
  list.splice(at, 0, item);
  contentOrder(store).put({ id: containerKey(orgId, parent), items: list });
}

/** A content pointer: `{type: space, space}` (management-api.md) or `{type: collection, collection}` (the spec). */
type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };
const spacePointer = object({ type: literal('space'), space: string() }, ['type', 'space']);
const collectionPointer = object({ type: literal('collection'), collection: string() }, ['type', 'collection']);
const contentPointer: Validator<ContentPointer> = (v, path) => (isPlainObject(v) && v['type'] === 'collection' ? collectionPointer(v, path) : spacePointer(v, path));
/** parent (nullable, optional) and position {before, after}, each a space or a collection pointer. */
export const moveBody = object({ parent: nullable(string()), position: object({ before: contentPointer, after: contentPointer }) });
export const transferBody = object({ organization: string({ min: 1 }) }, ['organization']);
export type MoveBody = ReturnType<typeof moveBody>;

/**
 * Where a move body sends an item of `orgId` now under `current`: the destination parent (absent ⇒ unchanged,
 * null ⇒ top level) and the sibling space it goes next to. Unknown or foreign ids inside the body ⇒ 400.
 */
export function moveTarget(ctx: RequestContext, orgId: string, item: string, current: string | undefined, b: MoveBody): { parent: string | undefined; position?: ContentPosition } {
  let parent = current;
  if (b.parent === null) parent = undefined;
  else if (b.parent !== undefined) {
    if (collections(ctx.store).get(b.parent)?.orgId !== orgId) throw badRequest(`body.parent: collection "${b.parent}" not found in organization "${orgId}"`);
    parent = b.parent;
  }
  const p = b.position;
  if (!p) return { parent };
  if (p.before && p.after) throw badRequest('body.position: give at most one of before, after');
  const side = p.before ? 'before' : 'after';
  const pointer = p.before ?? p.after;
  if (pointer === undefined) return { parent, position: {} }; // `position: {}` = at the end (the spec's default)
  const ref = pointer.type === 'space' ? pointer.space : pointer.collection;
  const where = `body.position.${side}.${pointer.type}`;
  if (ref === item) throw badRequest(`${where}: cannot place "${item}" relative to itself`);
  const sibling = pointer.type === 'space' ? spaces(ctx.store).get(ref) : collections(ctx.store).get(ref);
  const gone = sibling !== undefined && 'deletedAt' in sibling && sibling.deletedAt !== undefined;
  if (!sibling || gone || sibling.orgId !== orgId) throw badRequest(`${where}: ${pointer.type} "${ref}" not found in organization "${orgId}"`);
  if (sibling.parent !== parent) throw badRequest(`${where}: ${pointer.type} "${ref}" is not in ${parent === undefined ? 'the top level' : `collection "${parent}"`}, where the move goes`);
  return { parent, position: { [side]: ref } };
}

/**
 * The organization named by a transfer body: one the caller belongs to (else 400, like other ids in a body), and
 * not the one that owns the object already (the spec's 409 "Transfer would not result in any update").
 */
export function transferTarget(ctx: RequestContext, orgId: string, object: { kind: string; id: string; orgId: string }): string {
  const target = orgs(ctx.store).get(orgId);
  if (!target || !members(ctx.store).has(memberKey(orgId, ctx.userId))) throw badRequest(`body.organization: organization "${orgId}" not found`);
  if (target.id === object.orgId) throw conflict(`${object.kind} "${object.id}" already belongs to organization "${orgId}"; the transfer would change nothing`);
  return target.id;
}

/** A space a site shows cannot leave its organization (the site would show another organization's content). */
export function refuseIfOnSite(ctx: RequestContext, spaceIds: ReadonlySet<string>): void {
  const shown = siteSpaces(ctx.store).all().find((x) => spaceIds.has(x.spaceId));
  if (shown) throw badRequest(`space "${shown.spaceId}" is shown by site "${shown.siteId}"; remove it from the site before transferring`);
}

/** A space inside a collection is `in-collection`, a top-level one `private` (other visibilities are kept). */
export function visibilityFor(s: SpaceRec, parent: string | undefined): SpaceRec['visibility'] {
  if (parent !== undefined && s.visibility === 'private') return 'in-collection';
  if (parent === undefined && s.visibility === 'in-collection') return 'private';
  return s.visibility;
}

function moveSpace(ctx: RequestContext, b: MoveBody): Reply {
  const s = requireSpace(ctx, { active: true });
  const { parent, position } = moveTarget(ctx, s.orgId, s.id, s.parent, b);
  const next: SpaceRec = { ...s, visibility: visibilityFor(s, parent), updatedAt: ctx.now().toISOString() };
  delete next.parent;
  if (parent !== undefined) next.parent = parent;
  spaces(ctx.store).put(next);
  if (parent !== s.parent || position) placeContent(ctx.store, s.orgId, parent, s.id, position);
  return ok(presentSpace(ctx, next));
}

function transferSpace(ctx: RequestContext, b: { organization: string }): Reply {
  const s = requireSpace(ctx, { active: true });
  const target = transferTarget(ctx, b.organization, { kind: 'space', id: s.id, orgId: s.orgId });
  refuseIfOnSite(ctx, new Set([s.id]));
  const next: SpaceRec = { ...s, orgId: target, visibility: visibilityFor(s, undefined), updatedAt: ctx.now().toISOString() };
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
  createSpace: route({
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
        ...(b.language !== undefined ? { language: b.language } : {}),
        defaultLevel: null,
        revision: `rev-${id}`,
        createdAt: now,
        updatedAt: now,
      });
      return { ...created(presentSpace(ctx, s)), headers: { location: ctx.apiUrl(`/spaces/${id}`) } };
    },
  }),
  getSpaceById: read(ONE, (ctx) => requireSpace(ctx, { active: false }), presentSpace),
  updateSpaceById: update(
    ONE,
    patchSpace,
    (ctx, b) => {
      const next: SpaceRec = { ...requireSpace(ctx, { active: true }), updatedAt: ctx.now().toISOString() };
      if (typeof b.emoji === 'string' && typeof b.icon === 'string') throw badRequest('body: give at most one of emoji, icon');
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
