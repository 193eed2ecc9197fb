/**
 * The memoised read side used by every kind's fetch: two kinds asking for the same list share one set of
 * requests, which keeps a no-op plan at the lower bound of requests. A failed list rejects for every
 * caller — never an empty list.
 */
import type { ApiClient } from '../model/api-client.js';
import type { FetchContext } from '../model/kind.js';

export function createFetchContext(client: ApiClient, prune: (kind: string, org: string) => boolean): FetchContext {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      memo.set(key, p);
    }
    return p;
  };
  return {
    client,
    prune,
    list: <T>(path: string, query?: Record<string, string | number | boolean>) =>
      once(
        `L ${path}?${query ? new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString() : ''}`,
        () => client.listAll<T>(path, query),
      ),
    get: <T>(path: string) => once(`G ${path}`, () => client.get<T>(path)),
  };
}
