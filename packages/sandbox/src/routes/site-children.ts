/**
 * The operations on a site's children (sections, section groups, site spaces, share links, external links,
 * redirects), written once: find one (404 naming it), add one (201 + Location), change one (PATCH, or the
 * deprecated POST …/move), delete one (205, or 204 when the site has no such child). Each takes the site the path
 * names first (404 when the caller cannot see it), then the child; a child's presenter takes the site too.
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, notFound } from '../http.js';
import type { RouteDef } from '../router.js';
import type { SiteRec } from '../site-records.js';
import { siteSectionGroups, siteSections, siteShareLinks, siteSpaces } from '../site-records.js';
import type { Position } from '../site-structure.js';
import type { SandboxStore, Table } from '../store.js';
import { literal, object, oneOf, string, type Validator } from '../validate.js';
import { create, remove, update } from './crud.js';
import { requireSite } from './site-common.js';

type Children<T extends { id: string; siteId: string }> = (store: SandboxStore) => Table<T>;
type Find<T> = (ctx: RequestContext, site: SiteRec) => T;
type PresentIn<T> = (ctx: RequestContext, site: SiteRec, row: T) => unknown;

/** A child id in the site, or undefined: deletes of absent children answer 204 while the site exists. */
export function findChild<T extends { siteId: string }>(site: SiteRec, found: T | undefined): T | undefined {
  return found && found.siteId === site.id ? found : undefined;
}

/** The finder of the child of the site that path parameter `idParam` names in `table` (404 naming `what` when none). */
export const childOf =
  <T extends { id: string; siteId: string }>(table: Children<T>, idParam: string, what: string): Find<T> =>
  (ctx, site) => {
    const found = findChild(site, table(ctx.store).get(param(ctx, idParam)));
    if (!found) throw notFound(`${what} "${param(ctx, idParam)}" not found in site "${site.id}"`);
    return found;
  };

export const requireSection = childOf(siteSections, 'siteSectionId', 'section');
export const requireGroup = childOf(siteSectionGroups, 'siteSectionGroupId', 'section group');
export const requireSiteSpace = childOf(siteSpaces, 'siteSpaceId', 'site space');
export const requireShareLink = childOf(siteShareLinks, 'shareLinkId', 'share link');

/** The child of the site a body names at `path` (none named: undefined); one the site does not have ⇒ 400 naming `what`. */
export function bodyChild<T extends { id: string; siteId: string }>(
  ctx: RequestContext,
  site: SiteRec,
  table: Children<T>,
  id: string | undefined,
  path: string,
  what: string,
): T | undefined {
  if (id === undefined) return undefined;
  const found = findChild(site, table(ctx.store).get(id));
  if (!found) throw badRequest(`${path}: ${what} "${id}" not found in site "${site.id}"`);
  return found;
}

/** A child of the site as an operation answers it: with its site, which presenting it takes. */
interface InSite<T> {
  site: SiteRec;
  row: T;
}

/** `op` on the site the path names, its result kept with the site. */
const onSite =
  <R, B>(op: (ctx: RequestContext, site: SiteRec, body: B) => R) =>
  (ctx: RequestContext, b: B): InSite<R> => {
    const site = requireSite(ctx);
    return { site, row: op(ctx, site, b) };
  };

const presentIn =
  <R>(present: PresentIn<R>) =>
  (ctx: RequestContext, { site, row }: InSite<R>): unknown =>
    present(ctx, site, row);

/** POST of a new child of the site: `add` makes it; 201 with it presented and its Location (…/`segment`/id). */
export function addChild<T extends { id: string }, B>(
  pattern: string,
  segment: string,
  body: Validator<B>,
  add: (ctx: RequestContext, site: SiteRec, body: B) => T,
  present: PresentIn<T>,
): RouteDef {
  const location = ({ site, row }: InSite<T>): string => `/orgs/${site.orgId}/sites/${site.id}/${segment}/${row.id}`;
  return create(pattern, body, onSite(add), presentIn(present), { location });
}

/** PATCH, or POST …/move, of the child `find` finds: `change` it; 200 with the result presented. */
export function changeChild<T, R, B>(
  method: 'PATCH' | 'POST',
  pattern: string,
  body: Validator<B>,
  find: Find<T>,
  change: (ctx: RequestContext, site: SiteRec, row: T, body: B) => R,
  present: PresentIn<R>,
): RouteDef {
  return update(
    pattern,
    body,
    onSite((ctx, site, b: B) => change(ctx, site, find(ctx, site), b)),
    presentIn(present),
    method,
  );
}

/** DELETE of a site's child: `drop` deletes it (205); one the site does not have ⇒ 204 (the site must exist). */
export function removeChild<T extends { id: string; siteId: string }>(
  pattern: string,
  table: Children<T>,
  idParam: string,
  drop: (store: SandboxStore, site: SiteRec, row: T) => void = (store, _site, row) => void table(store).delete(row.id),
): RouteDef {
  return remove(pattern, (ctx) => {
    const site = requireSite(ctx);
    const row = findChild(site, table(ctx.store).get(param(ctx, idParam)));
    if (row) drop(ctx.store, site, row);
    return row !== undefined;
  });
}

/** A deprecated `/move` body: next to a reference, or (no `position`, or an empty one) to the end. */
export type MoveTo<P> = (Position & { end?: undefined; pointer: P }) | { end: true };

/**
 * `{position?: {before?: P, after?: P}}` with at most one of before/after; P checked by `pointer`. Without a
 * reference the item goes to the end (the official spec makes `position` optional; management-api.md lists it).
 */
export function movePosition<P>(
  pointer: Validator<P>,
  refOf: (p: P) => string,
  refField: string,
): Validator<MoveTo<P>> {
  const shape = object({ position: object({ before: pointer, after: pointer }) });
  return (v, path) => {
    const { position } = shape(v, path);
    if (position === undefined || (position.before === undefined && position.after === undefined)) return { end: true };
    const where = position.before !== undefined ? 'before' : 'after';
    const p = position[where];
    if ((position.before !== undefined && position.after !== undefined) || p === undefined)
      throw badRequest(`${path}.position: must have at most one of before, after`);
    return { where, ref: refOf(p), path: `${path}.position.${where}.${refField}`, pointer: p };
  };
}

export const pointerOf = <const K extends string, const T extends string>(
  types: readonly T[],
  key: K,
): Validator<{ type: T } & Record<K, string>> =>
  // eslint-disable-next-line no-restricted-syntax -- a computed key's type is lost in the object literal; the validator checks it
  object({ type: types.length === 1 ? literal(types[0] as T) : oneOf(types), [key]: string({ min: 1 }) } as const, [
    'type',
    key,
  ]) as unknown as Validator<{ type: T } & Record<K, string>>;

/**
 * POST …/move (deprecated but listed) of the child `find` finds: `toEnd` without a reference, else `beside` it
 * (which may answer the moved row); 200 with the child presented.
 */
export function moveChild<T, P>(
  pattern: string,
  body: Validator<MoveTo<P>>,
  find: Find<T>,
  toEnd: (store: SandboxStore, site: SiteRec, row: T) => void,
  beside: (store: SandboxStore, site: SiteRec, row: T, pos: Position & { pointer: P }) => T | void,
  present: PresentIn<T>,
): RouteDef {
  return changeChild(
    'POST',
    `${pattern}/move`,
    body,
    find,
    (ctx, site, row, pos) => {
      if (pos.end) {
        toEnd(ctx.store, site, row);
        return row;
      }
      return beside(ctx.store, site, row, pos) ?? row;
    },
    present,
  );
}
