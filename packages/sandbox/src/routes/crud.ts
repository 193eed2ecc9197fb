/**
 * The shapes most operations share, so that a resource module writes only what is its own: create one, read one,
 * list a page, change one (PATCH, PUT where the API replaces, POST for an action such as a move), delete one; and a
 * PATCH's written fields over a row.
 */
import type { RequestContext } from '../context.js';
import { created, noContent, ok, resetContent, type Reply } from '../http.js';
import { pageOf } from '../paginate.js';
import type { RouteDef } from '../router.js';
import type { Table } from '../store.js';
import type { Validator } from '../validate.js';
import { route } from './table.js';

type Present<R> = (ctx: RequestContext, row: R) => unknown;

export interface CreateOptions<R> {
  /** Where the new row lives, a path below /v1: answered as the Location header. */
  location?: (row: R) => string;
  /** The body may be left out (every field optional). */
  bodyOptional?: true;
  /** Default POST; PUT where the API creates by PUT. */
  method?: 'POST' | 'PUT';
}

/** POST (or PUT): `make` checks the body and stores the new row; 201 with it presented (and its Location). */
export const create = <R, B>(
  pattern: string,
  body: Validator<B>,
  make: (ctx: RequestContext, body: B) => R,
  present: Present<R>,
  options: CreateOptions<R> = {},
): RouteDef => {
  const { location, bodyOptional, method = 'POST' } = options;
  const handler = (ctx: RequestContext, b: B): Reply => {
    const row = make(ctx, b);
    const reply = created(present(ctx, row));
    return location ? { ...reply, headers: { location: ctx.apiUrl(location(row)) } } : reply;
  };
  return route({ method, pattern, body, ...(bodyOptional ? { bodyOptional } : {}), handler });
};

/** GET one: the row `find` finds (throwing the 404 when there is none), presented. */
export const read = <R>(pattern: string, find: (ctx: RequestContext) => R, present: Present<R>): RouteDef =>
  route({ method: 'GET', pattern, handler: (ctx) => ok(present(ctx, find(ctx))) });

/** GET a page of rows, each presented: `page` finds both (a presenter may need what the lookup found: the site …). */
export const listPage = <R>(
  pattern: string,
  page: (ctx: RequestContext) => readonly [rows: readonly R[], present: (row: R) => unknown],
): RouteDef =>
  route({
    method: 'GET',
    pattern,
    handler: (ctx) => {
      const [rows, present] = page(ctx);
      return pageOf(ctx, rows, present);
    },
  });

/** GET a page of the rows `rows` lists, each presented. */
export const list = <R>(pattern: string, rows: (ctx: RequestContext) => readonly R[], present: Present<R>): RouteDef =>
  listPage(pattern, (ctx) => [rows(ctx), (row: R) => present(ctx, row)]);

/** PATCH (or PUT, or POST): `change` checks the body and stores the changed row, which is answered presented. */
export const update = <R, B>(
  pattern: string,
  body: Validator<B>,
  change: (ctx: RequestContext, body: B) => R,
  present: Present<R>,
  method: 'PATCH' | 'PUT' | 'POST' = 'PATCH',
): RouteDef => route({ method, pattern, body, handler: (ctx, b) => ok(present(ctx, change(ctx, b))) });

export interface RemoveAnswers {
  /** When something was deleted. Default 205, the spec's "deleted". */
  deleted?: () => Reply;
  /** When there was nothing to delete. Default 204: deleting what is not there succeeds. */
  absent?: (ctx: RequestContext) => Reply;
}

/** DELETE: `drop` deletes what the path names and says whether there was anything. */
export const remove = (
  pattern: string,
  drop: (ctx: RequestContext) => boolean,
  answers: RemoveAnswers = {},
): RouteDef => {
  const { deleted = resetContent, absent = noContent } = answers;
  return route({ method: 'DELETE', pattern, handler: (ctx) => (drop(ctx) ? deleted() : absent(ctx)) });
};

/** A new id for `table` under `prefix`: no row's, nor one buried under `buriedAs` (a deleted id is never handed out again). */
export function newId<T extends { id: string }>(
  ctx: RequestContext,
  table: Table<T>,
  prefix: string,
  buriedAs?: string,
): string {
  return ctx.store.nextId(prefix, (x) => table.has(x) || (buriedAs !== undefined && ctx.store.isBuried(buriedAs, x)));
}

/** Delete `row` from `table` and bury its id under `kind` (never handed out again); false when there is no row. */
export function dropBuried<T extends { id: string }>(
  ctx: RequestContext,
  kind: string,
  row: T | undefined,
  table: Table<T>,
): boolean {
  if (!row) return false;
  table.delete(row.id);
  ctx.store.bury(kind, row.id);
  return true;
}

type Written<R, F extends keyof R> = { [K in F]?: R[K] | null };

/**
 * The fields a PATCH body wrote, set on `row` itself in the order of `fields`: a field the body leaves out keeps
 * its value; null on a field of `nullRemoves` removes it (elsewhere null is stored as written).
 */
export function assignWritten<R extends object, F extends keyof R>(
  row: R,
  body: Written<R, F>,
  fields: readonly F[],
  nullRemoves: readonly F[] = [],
): R {
  const target: Partial<R> = row;
  for (const field of fields) {
    const value = body[field];
    if (value === undefined) continue;
    if (value === null && nullRemoves.includes(field)) delete target[field];
    else target[field] = value as R[F];
  }
  return row;
}

/** A copy of `row` with the fields a PATCH body wrote (assignWritten). */
export const written = <R extends object, F extends keyof R>(
  row: R,
  body: Written<R, F>,
  fields: readonly F[],
  nullRemoves: readonly F[] = [],
): R => assignWritten({ ...row }, body, fields, nullRemoves);
