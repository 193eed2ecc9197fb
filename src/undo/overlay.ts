/**
 * The API as it will be once undo's restores ran, for planning the rest of undo before anything is written:
 * restored objects appear in the lists they belong to and answer GETs of their own path. Reads only;
 * writes go to the real client. The overlay knows no kind: each restore says where its object shows.
 */
import type { ApiClient, RequestOptions } from '../model/api-client.js';
import type { RestorePlan } from '../model/kind.js';

const hasQuery = (query: RequestOptions['query']): boolean =>
  query !== undefined && Object.values(query).some((v) => v !== undefined);
const idOf = (item: unknown): unknown =>
  typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;

export function overlayClient(client: ApiClient, restores: readonly RestorePlan[]): ApiClient {
  const lists = new Map<string, unknown[]>();
  const gets = new Map<string, unknown>();
  for (const r of restores) {
    for (const l of r.listed) lists.set(l.path, [...(lists.get(l.path) ?? []), l.item]);
    if (r.get) gets.set(r.get.path, r.get.body);
  }
  /** The restored items a list lacks (by id). */
  const extra = (path: string, items: readonly unknown[]): unknown[] => {
    const have = new Set(items.map(idOf));
    return (lists.get(path) ?? []).filter((x) => !have.has(idOf(x)));
  };
  return {
    baseUrl: client.baseUrl,
    request: (method, path, options) => client.request(method, path, options),
    get: <T>(path: string, query?: RequestOptions['query']): Promise<T> =>
      !hasQuery(query) && gets.has(path)
        ? Promise.resolve(structuredClone(gets.get(path)) as T)
        : client.get<T>(path, query),
    async *paginate<T>(path: string, query?: RequestOptions['query']): AsyncIterable<T> {
      const seen: unknown[] = [];
      for await (const item of client.paginate<T>(path, query)) {
        seen.push(item);
        yield item;
      }
      if (!hasQuery(query)) for (const item of extra(path, seen)) yield structuredClone(item) as T;
    },
    listAll: async <T>(path: string, query?: RequestOptions['query']): Promise<T[]> => {
      const items = await client.listAll<T>(path, query);
      return hasQuery(query) ? items : [...items, ...(extra(path, items).map((x) => structuredClone(x)) as T[])];
    },
    close: () => client.close(),
  };
}
