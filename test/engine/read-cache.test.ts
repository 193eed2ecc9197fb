/**
 * Reads kept between runs (src/engine/read-cache.ts): a pass serves what was read; stale reads are read again only
 * when asked for — one item alone (in its place, removed when gone, a new one re-reads the list), a whole list, a
 * GET, everything below a path; a pass forgets what it did not ask for; a failed read is not kept; answers are frozen.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { ApiError } from '../../src/model/errors.js';
import { ReadCache } from '../../src/engine/read-cache.js';

function fakeApi(data: Record<string, unknown>) {
  const calls: string[] = [];
  const answer = (path: string): unknown => {
    if (!(path in data)) throw new ApiError('GET', path, 404, 'not found');
    const v = data[path];
    if (v instanceof Error) throw v;
    return structuredClone(v);
  };
  const client: ApiClient = {
    baseUrl: 'http://api.test/v1',
    request: () => Promise.reject(new Error('no writes here')),
    get: async <T>(path: string) => (calls.push(`GET ${path}`), answer(path) as T),
    listAll: async <T>(path: string) => (calls.push(`LIST ${path}`), answer(path) as T[]),
    paginate: () => {
      throw new Error('not used');
    },
    close: async () => {},
  };
  return { client, calls, data };
}

const never = (): boolean => false;

async function pass(
  cache: ReadCache,
  client: ApiClient,
  read: (ctx: ReturnType<ReadCache['pass']>['context']) => Promise<unknown>,
) {
  const p = cache.pass(client, never);
  const out = await read(p.context);
  p.end();
  return out;
}

describe('ReadCache', () => {
  it('serves what it read; reads again only what was marked stale, and only when asked', async () => {
    const api = fakeApi({
      '/orgs/o/teams': [
        { id: 't1', title: 'A' },
        { id: 't2', title: 'B' },
      ],
      '/orgs/o': { id: 'o', title: 'O' },
    });
    const cache = new ReadCache();
    const both = (ctx: ReturnType<ReadCache['pass']>['context']) =>
      Promise.all([ctx.list('/orgs/o/teams'), ctx.get('/orgs/o')]);
    await pass(cache, api.client, both);
    expect(api.calls).toEqual(['LIST /orgs/o/teams', 'GET /orgs/o']);
    api.calls.length = 0;
    await pass(cache, api.client, both);
    expect(api.calls).toEqual([]);

    // One item alone, put in its place.
    api.data['/orgs/o/teams/t1'] = { id: 't1', title: 'A2' };
    cache.invalidate({ list: '/orgs/o/teams', item: { id: 't1', path: '/orgs/o/teams/t1' } });
    cache.invalidate({ get: '/orgs/o' });
    expect(api.calls).toEqual([]); // lazy
    const [teams] = (await pass(cache, api.client, both)) as [unknown[]];
    expect(teams).toEqual([
      { id: 't1', title: 'A2' },
      { id: 't2', title: 'B' },
    ]);
    expect(api.calls.sort()).toEqual(['GET /orgs/o', 'GET /orgs/o/teams/t1']);

    // Gone (404, or said so): removed. New: the list is read again (its place is unknown).
    api.calls.length = 0;
    cache.invalidate({ list: '/orgs/o/teams', item: { id: 't2', path: '/orgs/o/teams/t2' } });
    expect(await pass(cache, api.client, (ctx) => ctx.list('/orgs/o/teams'))).toEqual([{ id: 't1', title: 'A2' }]);
    api.data['/orgs/o/teams/t3'] = { id: 't3', title: 'C' };
    api.data['/orgs/o/teams'] = [
      { id: 't3', title: 'C' },
      { id: 't1', title: 'A2' },
    ];
    cache.invalidate({ list: '/orgs/o/teams', item: { id: 't3', path: '/orgs/o/teams/t3' } });
    expect(await pass(cache, api.client, (ctx) => ctx.list('/orgs/o/teams'))).toEqual([
      { id: 't3', title: 'C' },
      { id: 't1', title: 'A2' },
    ]);
    expect(api.calls).toEqual(['GET /orgs/o/teams/t2', 'GET /orgs/o/teams/t3', 'LIST /orgs/o/teams']);
  });

  it('hides an item whose answer carries hiddenIf, marks whole lists and paths below a prefix stale', async () => {
    const api = fakeApi({
      '/orgs/o/spaces': [{ id: 's1' }, { id: 's2' }],
      '/spaces/s1': { id: 's1', deletedAt: '2026-01-01' },
      '/spaces/s2/permissions/teams': [],
      '/orgs/o/sites/x/sections': [],
    });
    const cache = new ReadCache();
    const all = (ctx: ReturnType<ReadCache['pass']>['context']) =>
      Promise.all([
        ctx.list('/orgs/o/spaces'),
        ctx.list('/spaces/s2/permissions/teams'),
        ctx.list('/orgs/o/sites/x/sections'),
      ]);
    await pass(cache, api.client, all);
    api.calls.length = 0;
    cache.invalidate({ list: '/orgs/o/spaces', item: { id: 's1', path: '/spaces/s1', hiddenIf: 'deletedAt' } });
    cache.invalidate({ under: '/spaces/s2' });
    cache.invalidate({ under: '/orgs/o/sites/x' });
    const [spaces] = (await pass(cache, api.client, all)) as [unknown[]];
    expect(spaces).toEqual([{ id: 's2' }]);
    expect(api.calls.sort()).toEqual([
      'GET /spaces/s1',
      'LIST /orgs/o/sites/x/sections',
      'LIST /spaces/s2/permissions/teams',
    ]);
    expect(cache.lists('/spaces/').map((l) => l.path)).toEqual(['/spaces/s2/permissions/teams']);
  });

  it('forgets what a pass did not ask for and what failed; its answers are frozen', async () => {
    const api = fakeApi({ '/a': [{ id: '1' }], '/b': [{ id: '2' }] });
    const cache = new ReadCache();
    await pass(cache, api.client, (ctx) => Promise.all([ctx.list('/a'), ctx.list('/b')]));
    await pass(cache, api.client, (ctx) => ctx.list('/a'));
    expect(cache.size).toBe(1);
    api.calls.length = 0;
    await pass(cache, api.client, (ctx) => ctx.list('/b'));
    expect(api.calls).toEqual(['LIST /b']);

    const items = (await pass(cache, api.client, (ctx) => ctx.list('/b'))) as { id: string }[];
    expect(() => {
      items[0]!.id = 'changed';
    }).toThrow(TypeError);

    api.data['/c'] = new ApiError('GET', '/c', 503, 'unavailable');
    await expect(pass(cache, api.client, (ctx) => ctx.list('/c'))).rejects.toThrow(/unavailable/);
    api.data['/c'] = [{ id: '3' }];
    api.calls.length = 0;
    expect(await pass(cache, api.client, (ctx) => ctx.list('/c'))).toEqual([{ id: '3' }]);
    expect(api.calls).toEqual(['LIST /c']);
  });
});
