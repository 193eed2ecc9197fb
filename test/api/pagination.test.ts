import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/errors.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { rejectionOf, testClient } from './helpers/client.js';
import { apiError, json, startScriptServer } from './helpers/script-server.js';
import type { ScriptServer } from './helpers/script-server.js';

let server: ScriptServer;
let client: ApiClient;

afterEach(async () => {
  await client.close();
  await server.close();
});

const ITEMS = Array.from({ length: 2500 }, (_, i) => ({ id: `m${i}` }));

/** Serves ITEMS in pages of `limit`, with opaque cursors; `onPage` may answer instead (e.g. with an error). */
function pagedHandler(onPage?: (pageNo: number, res: Parameters<typeof json>[0]) => boolean) {
  return ({ res, received }: { res: Parameters<typeof json>[0]; received: { url: string } }) => {
    const url = new URL(received.url, 'http://x');
    const limit = Number(url.searchParams.get('limit'));
    const cursor = url.searchParams.get('page');
    const start = cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
    if (onPage?.(start / limit, res) === true) return;
    const items = ITEMS.slice(start, start + limit);
    const end = start + items.length;
    const next = end < ITEMS.length ? { page: Buffer.from(String(end)).toString('base64url') } : undefined;
    json(res, 200, { items, count: items.length, ...(next ? { next } : {}) });
  };
}

describe('pagination', () => {
  it('follows next.page with limit=1000 and returns every item in order', async () => {
    server = await startScriptServer(pagedHandler());
    client = testClient(server.url).client;
    const all = await client.listAll<{ id: string }>('/orgs/o1/members', { role: 'admin' });

    expect(all).toEqual(ITEMS);
    expect(server.received).toHaveLength(3);
    const queries = server.received.map((r) => new URL(r.url, 'http://x').searchParams);
    expect(queries.map((q) => q.get('limit'))).toEqual(['1000', '1000', '1000']);
    expect(queries.map((q) => q.get('role'))).toEqual(['admin', 'admin', 'admin']);
    expect(queries[0]?.has('page')).toBe(false);
    expect(queries.slice(1).map((q) => q.get('page'))).toEqual([
      Buffer.from('1000').toString('base64url'),
      Buffer.from('2000').toString('base64url'),
    ]);
  });

  it('a failed middle page throws for the whole list instead of returning a short one', async () => {
    server = await startScriptServer(
      pagedHandler((pageNo, res) => (pageNo === 1 ? (apiError(res, 500, 'boom'), true) : false)),
    );
    client = testClient(server.url).client;
    const e = (await rejectionOf(client.listAll('/orgs/o1/members'))) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect([e.path, e.status, e.apiMessage]).toEqual(['/orgs/o1/members', 500, 'boom']);
    expect(server.received).toHaveLength(2);
  });

  it('paginate yields the first page, then throws when a later page keeps failing after retries', async () => {
    server = await startScriptServer(
      pagedHandler((pageNo, res) => (pageNo === 1 ? (apiError(res, 503, 'busy'), true) : false)),
    );
    const t = testClient(server.url);
    client = t.client;
    const seen: unknown[] = [];
    const consume = async (): Promise<void> => {
      for await (const item of client.paginate('/orgs/o1/members')) seen.push(item);
    };
    const e = (await rejectionOf(consume())) as ApiError;
    expect(e.status).toBe(503);
    expect(seen).toHaveLength(1000);
    expect(server.received).toHaveLength(1 + 4);
  });

  it('a page that recovers after a retry gives the complete list', async () => {
    let failed = false;
    server = await startScriptServer(
      pagedHandler((pageNo, res) => {
        if (pageNo !== 2 || failed) return false;
        failed = true;
        apiError(res, 502, 'bad gateway');
        return true;
      }),
    );
    client = testClient(server.url).client;
    expect(await client.listAll('/orgs/o1/members')).toEqual(ITEMS);
    expect(server.received).toHaveLength(4);
  });

  it('rejects a response that is not a list envelope and a cursor that repeats', async () => {
    server = await startScriptServer(({ res, received }) =>
      received.url.startsWith('/v1/bad')
        ? json(res, 200, { id: 'x' })
        : json(res, 200, { items: [1], count: 1, next: { page: 'same' } }),
    );
    client = testClient(server.url).client;
    const notList = (await rejectionOf(client.listAll('/bad'))) as ApiError;
    expect(notList.apiMessage).toMatch(/not a list/);
    const loop = (await rejectionOf(client.listAll('/loop'))) as ApiError;
    expect(loop.apiMessage).toMatch(/cursor repeated/);
    expect(server.received.filter((r) => r.url.startsWith('/v1/loop'))).toHaveLength(2);
  });
});
