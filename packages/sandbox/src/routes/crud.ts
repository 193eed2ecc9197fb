/**
 * Small pieces the resource modules share for reading and deleting their rows, so each new resource states only
 * what is its own (what is found, how it is presented) and the statuses stay the same everywhere.
 */
import type { RequestContext } from '../context.js';
import { noContent, notFound, resetContent, type Reply } from '../http.js';
import type { Table } from '../store.js';

/** The row, or 404 naming what was asked for. */
export function found<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw notFound(`${what} not found`);
  return row;
}

/**
 * Delete `row` from `table` when there is one: 205, its id buried under `kind` (never handed out again); nothing
 * to delete: 204 (management-api.md: deletes answer 205; the spec: 204 when the object did not exist).
 */
export function deletedOrAbsent<T extends { id: string }>(ctx: RequestContext, kind: string, row: T | undefined, table: Table<T>): Reply {
  if (!row) return noContent();
  table.delete(row.id);
  ctx.store.bury(kind, row.id);
  return resetContent();
}
