/**
 * Where spaces and collections sit in an organization: the order of a parent's content (a collection, or the top
 * level), and what moves, transfers and new items check of it. spaces.ts and collections.ts share it.
 */
import type { RequestContext } from '../context.js';
import { badRequest, conflict } from '../http.js';
import type { OrgRec } from '../records.js';
import { collections, memberKey, members, orgs, spaces } from '../records.js';
import { siteSpaces } from '../site-records.js';
import type { SandboxStore, Table } from '../store.js';
import { isPlainObject, literal, nullable, object, string, type Validator } from '../validate.js';
import { requireOrg } from './common.js';

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
    ...collections(store)
      .where((c) => c.orgId === orgId && c.parent === parent)
      .map((c) => c.id),
    ...spaces(store)
      .where((s) => s.deletedAt === undefined && s.orgId === orgId && s.parent === parent)
      .map((s) => s.id),
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
export function placeContent(
  store: SandboxStore,
  orgId: string,
  parent: string | undefined,
  item: string,
  position: ContentPosition = {},
): void {
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
const contentPointer: Validator<ContentPointer> = (v, path) =>
  isPlainObject(v) && v['type'] === 'collection' ? collectionPointer(v, path) : spacePointer(v, path);
/** parent (nullable, optional) and position {before, after}, each a space or a collection pointer. */
export const moveBody = object({
  parent: nullable(string()),
  position: object({ before: contentPointer, after: contentPointer }),
});
export const transferBody = object({ organization: string({ min: 1 }) }, ['organization']);
export type MoveBody = ReturnType<typeof moveBody>;

interface MoveTarget {
  parent: string | undefined;
  position?: ContentPosition;
}

/**
 * Where a move body sends an item of `orgId` now under `current`: the destination parent (absent ⇒ unchanged,
 * null ⇒ top level) and the sibling space it goes next to. Unknown or foreign ids inside the body ⇒ 400.
 */
export function moveTarget(
  ctx: RequestContext,
  orgId: string,
  item: string,
  current: string | undefined,
  b: MoveBody,
): MoveTarget {
  let parent = current;
  if (b.parent === null) parent = undefined;
  else if (b.parent !== undefined) {
    if (collections(ctx.store).get(b.parent)?.orgId !== orgId)
      throw badRequest(`body.parent: collection "${b.parent}" not found in organization "${orgId}"`);
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
  if (!sibling || gone || sibling.orgId !== orgId)
    throw badRequest(`${where}: ${pointer.type} "${ref}" not found in organization "${orgId}"`);
  if (sibling.parent !== parent)
    throw badRequest(
      `${where}: ${pointer.type} "${ref}" is not in ${parent === undefined ? 'the top level' : `collection "${parent}"`}, where the move goes`,
    );
  return { parent, position: { [side]: ref } };
}

/** The path's organization, for a new space or collection whose body names `parent`: a collection of it (else 400, like other ids in a body). */
export function orgOfNew(ctx: RequestContext, parent: string | undefined): OrgRec {
  const org = requireOrg(ctx);
  if (parent !== undefined && collections(ctx.store).get(parent)?.orgId !== org.id)
    throw badRequest(`body.parent: collection "${parent}" not found in organization "${org.id}"`);
  return org;
}

/**
 * The organization named by a transfer body: one the caller belongs to (else 400, like other ids in a body), and
 * not the one that owns the object already (the spec's 409 "Transfer would not result in any update").
 */
export function transferTarget(
  ctx: RequestContext,
  orgId: string,
  object: { kind: string; id: string; orgId: string },
): string {
  const target = orgs(ctx.store).get(orgId);
  if (!target || !members(ctx.store).has(memberKey(orgId, ctx.userId)))
    throw badRequest(`body.organization: organization "${orgId}" not found`);
  if (target.id === object.orgId)
    throw conflict(
      `${object.kind} "${object.id}" already belongs to organization "${orgId}"; the transfer would change nothing`,
    );
  return target.id;
}

/** A space a site shows cannot leave its organization (the site would show another organization's content). */
export function refuseIfOnSite(ctx: RequestContext, spaceIds: ReadonlySet<string>): void {
  const shown = siteSpaces(ctx.store)
    .all()
    .find((x) => spaceIds.has(x.spaceId));
  if (shown)
    throw badRequest(
      `space "${shown.spaceId}" is shown by site "${shown.siteId}"; remove it from the site before transferring`,
    );
}

/** `next`, a changed copy of `was`, under the target's parent (none: the top level), stored and placed in its order. */
export function putMoved<R extends { id: string; orgId: string; parent?: string }>(
  ctx: RequestContext,
  table: Table<R>,
  was: R,
  next: R,
  target: MoveTarget,
): R {
  const { parent, position } = target;
  delete next.parent;
  if (parent !== undefined) next.parent = parent;
  table.put(next);
  if (parent !== was.parent || position) placeContent(ctx.store, was.orgId, parent, was.id, position);
  return next;
}
