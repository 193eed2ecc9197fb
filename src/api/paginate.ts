/**
 * Walking a paginated list (`{next?: {page}, count, items}`) page by page. Any failed page throws for the
 * whole list, so a caller never sees a silently short list.
 */
import { ApiError } from '../model/errors.js';
import type { ListEnvelope, RequestOptions } from '../model/api-client.js';

/** The API maximum; fewer round trips for large organizations. */
export const PAGE_LIMIT = 1000;

type Query = RequestOptions['query'];

export async function* paginatePages<T>(
  get: (path: string, query: Query) => Promise<unknown>,
  path: string,
  query: Query,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let page: string | undefined;
  do {
    const body = await get(path, { ...query, limit: PAGE_LIMIT, page });
    const envelope = asEnvelope<T>(body, path);
    yield* envelope.items;
    page = envelope.next?.page;
    if (page !== undefined) {
      // A cursor that comes back again would loop forever.
      if (seen.has(page))
        throw new ApiError('GET', path, undefined, 'pagination cursor repeated; list is inconsistent');
      seen.add(page);
    }
  } while (page !== undefined);
}

function asEnvelope<T>(body: unknown, path: string): ListEnvelope<T> {
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { items?: unknown }).items)) {
    throw new ApiError('GET', path, undefined, 'response is not a list (no items array)');
  }
  const next = (body as { next?: unknown }).next;
  if (next !== undefined && next !== null && typeof (next as { page?: unknown }).page !== 'string') {
    throw new ApiError('GET', path, undefined, 'list response has a malformed next.page');
  }
  return body as ListEnvelope<T>;
}
