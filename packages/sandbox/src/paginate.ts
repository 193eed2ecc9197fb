/**
 * Paginated lists: the envelope `{next?: {page}, count, items}`, `limit` 0..1000 (0 or absent ⇒ the default
 * page size) and opaque page tokens. A token is base64url JSON of the offset plus a check value bound to the
 * list (path + filters), so a garbled token, or one from another list, is a 400 instead of a wrong page.
 * `count` is the number of items in this page (management-api.md; the official spec says total).
 */
import type { RequestContext } from './context.js';
import { badRequest, ok, type Reply } from './http.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export function pageSize(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null || raw === '') return DEFAULT_PAGE_SIZE;
  if (!/^\d+$/.test(raw))
    throw badRequest(`query.limit: must be an integer between 0 and ${MAX_PAGE_SIZE} (got "${raw}")`);
  const n = Number(raw);
  if (n > MAX_PAGE_SIZE) throw badRequest(`query.limit: must be at most ${MAX_PAGE_SIZE} (got ${n})`);
  return n === 0 ? DEFAULT_PAGE_SIZE : n;
}

/** Identity of a list: its path and every query parameter except the paging ones. */
function listKey(ctx: RequestContext): string {
  const q = [...ctx.query.entries()]
    .filter(([k]) => k !== 'page' && k !== 'limit')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${ctx.path}?${new URLSearchParams(q).toString()}`;
}

function check(key: string, offset: number): string {
  // FNV-1a, 32 bit: enough to tell a real token from a garbled or foreign one.
  let h = 0x811c9dc5;
  for (const ch of `${key}#${offset}`) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

export function encodePageToken(key: string, offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, c: check(key, offset) })).toString('base64url');
}

function decodePageToken(key: string, token: string): number {
  const invalid = () =>
    badRequest('query.page: invalid page token (pass back next.page from the previous page of this list)');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const p = parsed as { o?: unknown; c?: unknown } | null;
  if (typeof p !== 'object' || p === null || !Number.isSafeInteger(p.o) || (p.o as number) < 0) throw invalid();
  if (p.c !== check(key, p.o as number)) throw invalid();
  return p.o as number;
}

/**
 * Answer one page of `items` (already filtered and ordered), each mapped by `present`. `size`: the page size when
 * the operation declares its own `limit` rule (the audit events'); default: `limit` read by pageSize.
 */
export function pageOf<T>(
  ctx: RequestContext,
  items: readonly T[],
  present: (item: T) => unknown,
  size: number = pageSize(ctx.query),
): Reply {
  const key = listKey(ctx);
  const token = ctx.query.get('page');
  const offset = token === null || token === '' ? 0 : decodePageToken(key, token);
  const slice = items.slice(offset, offset + size);
  const end = offset + slice.length;
  const body: { next?: { page: string }; count: number; items: unknown[] } = {
    count: slice.length,
    items: slice.map(present),
  };
  if (end < items.length) body.next = { page: encodePageToken(key, end) };
  return ok(body);
}
