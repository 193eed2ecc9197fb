import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE } from '@docops/sandbox';
import { encodePageToken } from '../../packages/sandbox/src/paginate.js';
import { sandbox, type Json } from './helpers.js';

const ORG = '/orgs/org-demo';

describe('auth and routing', () => {
  it('401 with the error body when the token is missing or wrong', async () => {
    const { call } = await sandbox({ token: 'secret-1' });
    for (const token of [null, 'wrong']) {
      const res = await call('GET', '/orgs', undefined, { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await call('GET', '/orgs', undefined, { token: 'secret-1' })).status).toBe(200);
  });

  it('404 for unknown routes and ids, 405 with Allow for a known path and wrong method', async () => {
    const { call } = await sandbox();
    const unknown = await call('GET', '/nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe(404);
    expect((await call('GET', `${ORG}/teams/team-nope`)).body).toEqual({
      error: { code: 404, message: expect.stringContaining('team-nope') },
    });
    const wrong = await call('DELETE', ORG);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, PATCH');
    expect(wrong.body.error.code).toBe(405);
  });

  it('400 for invalid JSON, a missing required body, unknown fields and a body where none is taken', async () => {
    const { call } = await sandbox();
    const badJson = await call('PATCH', ORG, undefined, { raw: '{"title": ' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.message).toMatch(/not valid JSON/);
    expect((await call('PATCH', ORG)).body.error.message).toBe('body: is required (a JSON object)');
    expect((await call('PATCH', ORG, { title: 'Fine', color: 'red' })).body.error.message).toMatch(
      /^body\.color: unknown field/,
    );
    expect((await call('PATCH', ORG, ['title'])).status).toBe(400);
    expect((await call('POST', `${ORG}/members/u-bob/sso`, { force: true })).status).toBe(400);
    expect((await call('POST', `${ORG}/members/u-bob/sso`, {})).status).toBe(200);
    expect((await call('GET', ORG)).body.title).toBe('Acme Docs');
  });
});

describe('pagination', () => {
  async function withManyMembers(): Promise<Awaited<ReturnType<typeof sandbox>>> {
    const client = await sandbox();
    for (let batch = 0; batch < 3; batch++) {
      const emails = Array.from({ length: 500 }, (_, i) => `user${batch * 500 + i}@bulk.test`);
      const res = await client.call('POST', `${ORG}/invites`, { emails });
      expect(res.body.invited).toBe(500);
    }
    return client;
  }

  async function collect(call: Json, limit: string): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const q = new URLSearchParams({ ...(limit ? { limit } : {}), ...(page ? { page } : {}) });
      const res = await call('GET', `${ORG}/members?sort=name&order=asc&${q}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.items.length);
      ids.push(...res.body.items.map((m: Json) => m.id));
      page = res.body.next?.page;
      pages++;
    } while (page);
    return { ids, pages };
  }

  it('walks 1,510 members with limit=1000 and with the default page size: same order, no gaps or duplicates', async () => {
    const { call } = await withManyMembers();
    const big = await collect(call, '1000');
    expect(big.pages).toBe(2);
    expect(big.ids).toHaveLength(1510);
    expect(new Set(big.ids).size).toBe(1510);
    const small = await collect(call, '');
    expect(small.pages).toBe(Math.ceil(1510 / DEFAULT_PAGE_SIZE));
    expect(small.ids).toEqual(big.ids);
    const zero = await call('GET', `${ORG}/members?limit=0`);
    expect(zero.body.count).toBe(DEFAULT_PAGE_SIZE);
    const again = await collect(call, '1000');
    expect(again.ids).toEqual(big.ids);
  });

  it('lists without a next page when everything fits, and page tokens are bound to their list', async () => {
    const { call } = await sandbox();
    const first = await call('GET', `${ORG}/members?limit=4`);
    expect(first.body.count).toBe(4);
    const token = first.body.next.page as string;
    const second = await call('GET', `${ORG}/members?limit=4&page=${encodeURIComponent(token)}`);
    expect(second.body.items.map((m: Json) => m.id)).not.toContain(first.body.items[0].id);
    const teams = await call('GET', `${ORG}/teams`);
    expect(teams.body.next).toBeUndefined();
    expect((await call('GET', `${ORG}/teams?page=${encodeURIComponent(token)}`)).status).toBe(400);
    expect((await call('GET', `${ORG}/members?role=edit&page=${encodeURIComponent(token)}`)).status).toBe(400);
  });

  it('400 for a garbled page token and for limit > 1000, negative, fractional or not a number', async () => {
    const { call } = await sandbox();
    const forged = encodePageToken('/v1/orgs/org-demo/teams?', 1).slice(0, -2) + 'xx';
    for (const page of ['garbage', '!!!', forged, Buffer.from('{"o":1,"c":"nope"}').toString('base64url')]) {
      const res = await call('GET', `${ORG}/teams?page=${encodeURIComponent(page)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/query\.page/);
    }
    for (const limit of ['1001', '-1', 'abc', '1.5']) {
      const res = await call('GET', `${ORG}/teams?limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(400);
      expect(res.body.error.message).toMatch(/query\.limit/);
    }
    expect((await call('GET', `${ORG}/teams?limit=1000`)).status).toBe(200);
    const one = await call('GET', `${ORG}/teams?limit=1`);
    expect(one.body.count).toBe(1);
    expect(one.body.next.page).toEqual(expect.any(String));
  });
});
