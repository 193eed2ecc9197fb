/**
 * Collections: list (nested filter), create, get, patch, delete (cascades), the spaces of a collection (in
 * content order), move (re-parent and/or place before/after a sibling space) and transfer (the whole tree).
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, notFound, ok, type Reply } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryBoolean } from '../query.js';
import type { CollectionRec } from '../records.js';
import { collections, memberKey, members, spaces } from '../records.js';
import { object, string } from '../validate.js';
import { defaultLevel } from '../validate-spec-fields.js';
import { dropGrantsOn } from '../permission-records.js';
import { goneOr404, inOrg, isOrgAdmin } from './common.js';
import {
  moveBody,
  moveTarget,
  orderedContent,
  orgOfNew,
  putMoved,
  refuseIfOnSite,
  transferBody,
  transferTarget,
  type MoveBody,
} from './content-order.js';
import { activeSpaces, presentSpace, softDeleteSpace, sweepExpiredSpaces } from './spaces.js';
import { create, list, newId, read, remove, update, written } from './crud.js';
import { route, type RouteTable } from './table.js';

const ONE = '/v1/collections/:collectionId';

export function presentCollection(ctx: RequestContext, c: CollectionRec): Record<string, unknown> {
  const admin = isOrgAdmin(ctx, c.orgId);
  return {
    object: 'collection',
    id: c.id,
    title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    organization: c.orgId,
    ...(c.parent !== undefined ? { parent: c.parent } : {}),
    defaultLevel: c.defaultLevel,
    urls: { location: ctx.apiUrl(`/collections/${c.id}`), app: ctx.appUrl(`/o/${c.orgId}/c/${c.id}`) },
    permissions: { view: true, admin, viewInviteLinks: admin, create: admin },
  };
}

/** The collection named by `:collectionId`, if the caller belongs to its organization. */
function findCollection(ctx: RequestContext): CollectionRec | undefined {
  const c = collections(ctx.store).get(param(ctx, 'collectionId'));
  return c && members(ctx.store).has(memberKey(c.orgId, ctx.userId)) ? c : undefined;
}

function requireCollection(ctx: RequestContext): CollectionRec {
  const c = findCollection(ctx);
  if (!c) throw notFound(`collection "${param(ctx, 'collectionId')}" not found`);
  return c;
}

/** Deleting a collection deletes its nested collections and (soft-)deletes the spaces inside them. */
function deleteCollectionTree(ctx: RequestContext, c: CollectionRec): void {
  for (const child of collections(ctx.store).where((x) => x.parent === c.id)) deleteCollectionTree(ctx, child);
  for (const s of activeSpaces(ctx.store).filter((x) => x.parent === c.id)) softDeleteSpace(ctx, s);
  collections(ctx.store).delete(c.id);
  dropGrantsOn(ctx.store, 'collection', [c.id]); // its spaces keep theirs until they are purged (restorable)
  ctx.store.bury('collection', c.id);
}

/** The collection and every collection nested in it, parents first. */
function collectionTree(ctx: RequestContext, c: CollectionRec): CollectionRec[] {
  const out = [c];
  for (let i = 0; i < out.length; i++) out.push(...collections(ctx.store).where((x) => x.parent === out[i]!.id));
  return out;
}

function moveCollection(ctx: RequestContext, b: MoveBody): Reply {
  const c = requireCollection(ctx);
  const target = moveTarget(ctx, c.orgId, c.id, c.parent, b);
  const { parent } = target;
  // management-api.md lists no 409 (the spec's answer here), so a cycle is a 400 like other bad bodies.
  if (parent !== undefined && collectionTree(ctx, c).some((x) => x.id === parent)) {
    throw badRequest(
      `body.parent: cannot move collection "${c.id}" into itself or a collection nested in it ("${parent}")`,
    );
  }
  return ok(presentCollection(ctx, putMoved(ctx, collections(ctx.store), c, { ...c }, target)));
}

/** The collection leaves for the target's top level with everything inside it (deleted spaces too). */
function transferCollection(ctx: RequestContext, b: { organization: string }): Reply {
  const c = requireCollection(ctx);
  const target = transferTarget(ctx, b.organization, { kind: 'collection', id: c.id, orgId: c.orgId });
  const tree = collectionTree(ctx, c);
  const inside = new Set(tree.map((x) => x.id));
  const treeSpaces = spaces(ctx.store).where((s) => s.parent !== undefined && inside.has(s.parent));
  refuseIfOnSite(ctx, new Set(treeSpaces.filter((s) => s.deletedAt === undefined).map((s) => s.id)));
  for (const x of tree) collections(ctx.store).put({ ...x, orgId: target });
  for (const s of treeSpaces) spaces(ctx.store).put({ ...s, orgId: target });
  // Grants name teams and members of the old organization: they stay behind.
  dropGrantsOn(ctx.store, 'collection', inside);
  dropGrantsOn(
    ctx.store,
    'space',
    treeSpaces.map((s) => s.id),
  );
  const moved: CollectionRec = { ...c, orgId: target };
  delete moved.parent;
  collections(ctx.store).put(moved);
  return ok(presentCollection(ctx, moved));
}

const title = string({ max: 50 });
const createCollection = object({ title, parent: string() });
const patchCollection = object({ title, description: string({ max: 100 }), defaultLevel });

export const collectionRoutes: RouteTable = {
  listCollectionsInOrganizationById: list(
    '/v1/orgs/:organizationId/collections',
    (ctx) => {
      const inTheOrg = inOrg(ctx, collections(ctx.store));
      const nested = queryBoolean(ctx.query, 'nested') ?? true;
      return nested ? inTheOrg : inTheOrg.filter((c) => c.parent === undefined);
    },
    presentCollection,
  ),
  createCollection: create(
    '/v1/orgs/:organizationId/collections',
    createCollection,
    (ctx, b) => {
      const org = orgOfNew(ctx, b.parent);
      const id = newId(ctx, collections(ctx.store), 'col', 'collection');
      const c: CollectionRec = {
        id,
        orgId: org.id,
        title: b.title ?? 'Untitled',
        ...(b.parent ? { parent: b.parent } : {}),
        defaultLevel: null,
      };
      return collections(ctx.store).put(c);
    },
    presentCollection,
    { location: (c) => `/collections/${c.id}`, bodyOptional: true },
  ),
  getCollectionById: read(ONE, requireCollection, presentCollection),
  updateCollectionById: update(
    ONE,
    patchCollection,
    (ctx, b) =>
      collections(ctx.store).put(written(requireCollection(ctx), b, ['title', 'description', 'defaultLevel'])),
    presentCollection,
  ),
  deleteCollectionById: remove(
    ONE,
    (ctx) => {
      const c = findCollection(ctx);
      if (c) deleteCollectionTree(ctx, c);
      return c !== undefined;
    },
    { absent: (ctx) => goneOr404(ctx, 'collection', 'collectionId') },
  ),
  listSpacesInCollectionById: route({
    method: 'GET',
    pattern: `${ONE}/spaces`,
    handler: (ctx) => {
      const c = requireCollection(ctx);
      sweepExpiredSpaces(ctx);
      const inside = new Map(
        activeSpaces(ctx.store)
          .filter((s) => s.parent === c.id)
          .map((s) => [s.id, s]),
      );
      const inOrder = orderedContent(ctx.store, c.orgId, c.id).flatMap((id) => inside.get(id) ?? []);
      return pageOf(ctx, inOrder, (s) => presentSpace(ctx, s));
    },
  }),
  moveCollection: route({ method: 'POST', pattern: `${ONE}/move`, body: moveBody, handler: moveCollection }),
  transferCollection: route({
    method: 'POST',
    pattern: `${ONE}/transfer`,
    body: transferBody,
    handler: transferCollection,
  }),
};
