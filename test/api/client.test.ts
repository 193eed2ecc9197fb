import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/errors.js';
import { rejectionOf, testClient, TOKEN } from './helpers/client.js';
import { apiError, json, startScriptServer } from './helpers/script-server.js';
import type { ScriptServer } from './helpers/script-server.js';
import type { ApiClient } from '../../src/model/api-client.js';

let server: ScriptServer;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.close();
});

describe('requests', () => {
  it('sends auth, accept and JSON body headers below the /v1 prefix and returns the parsed body', async () => {
    server = await startScriptServer(({ res, received }) =>
      json(res, 201, { id: 't1', echo: JSON.parse(received.body) as unknown }, { location: '/v1/x' }),
    );
    const t = testClient(server.url, { userAgent: 'docops-test/1' });
    client = t.client;
    const res = await client.request<{ id: string; echo: unknown }>('POST', '/orgs/o1/teams', {
      body: { title: 'Platform' },
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 't1', echo: { title: 'Platform' } });
    expect(res.headers.location).toBe('/v1/x');
    const [r] = server.received;
    expect(r?.method).toBe('POST');
    expect(r?.url).toBe('/v1/orgs/o1/teams');
    expect(r?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r?.headers.accept).toBe('application/json');
    expect(r?.headers['content-type']).toBe('application/json');
    expect(r?.headers['user-agent']).toBe('docops-test/1');
    expect(t.responses).toEqual([
      expect.objectContaining({ method: 'POST', route: '/orgs/o1/teams', status: 201, attempt: 1 }),
    ]);
  });

  it('sends no content-type without a body and encodes the query, skipping undefined values', async () => {
    server = await startScriptServer(({ res }) => json(res, 200, { ok: true }));
    client = testClient(server.url).client;
    const body = await client.get('/orgs/o1/members', { search: 'a b&c', limit: 5, role: undefined, active: true });

    expect(body).toEqual({ ok: true });
    expect(server.received[0]?.url).toBe('/v1/orgs/o1/members?search=a+b%26c&limit=5&active=true');
    expect(server.received[0]?.headers['content-type']).toBeUndefined();
  });

  it('treats 204 and 205 as success without a body', async () => {
    server = await startScriptServer(({ res, index }) => {
      res.writeHead(index === 1 ? 204 : 205);
      res.end();
    });
    client = testClient(server.url).client;
    const a = await client.request('DELETE', '/orgs/o1/teams/t1');
    const b = await client.request('DELETE', '/orgs/o1/sites/s1');
    expect([a.status, a.body, b.status, b.body]).toEqual([204, undefined, 205, undefined]);
  });

  it('sends no Authorization header when there is no token', async () => {
    server = await startScriptServer(({ res }) => json(res, 200, {}));
    client = testClient(server.url, { token: undefined }).client;
    await client.get('/orgs');
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it('a throwing onResponse hook does not fail the request', async () => {
    server = await startScriptServer(({ res }) => json(res, 200, { fine: true }));
    const t = testClient(server.url, {
      onResponse: () => {
        throw new Error('metrics broke');
      },
    });
    client = t.client;
    expect(await client.get('/orgs')).toEqual({ fine: true });
    expect(server.received).toHaveLength(1);
    expect(t.logs).toEqual([expect.objectContaining({ level: 'warn', msg: 'onResponse hook failed' })]);
  });

  it('a background view sends the same requests on the same connections; closing it closes nothing', async () => {
    server = await startScriptServer(({ res, received }) => json(res, 200, { items: [{ url: received.url }] }));
    const t = testClient(server.url);
    client = t.client;
    const background = client.background!();
    expect(background.background!()).toBe(background);
    expect(await background.listAll('/orgs/o1/members')).toEqual([{ url: '/v1/orgs/o1/members?limit=1000' }]);
    await background.close();
    expect(await client.get('/orgs/o1')).toEqual({ items: [{ url: '/v1/orgs/o1' }] });
    expect(server.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  it('exposes the base URL without a trailing slash', async () => {
    server = await startScriptServer();
    client = testClient(`${server.url}/`).client;
    expect(client.baseUrl).toBe(server.url);
  });
});

describe('error mapping', () => {
  it('throws ApiError with method, path, status and the API error message', async () => {
    server = await startScriptServer(({ res }) => apiError(res, 404, 'Team not found'));
    client = testClient(server.url).client;
    const err = await rejectionOf(client.get('/orgs/o1/teams/nope', { shareKey: 'sk_123' }));

    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect([e.method, e.path, e.status, e.apiMessage]).toEqual(['GET', '/orgs/o1/teams/nope', 404, 'Team not found']);
    expect(e.message).toBe('GET /orgs/o1/teams/nope failed with 404: Team not found');
    expect(e.message).not.toContain('sk_123');
    expect(server.received).toHaveLength(1);
  });

  it('falls back to the status text when the body has no error message', async () => {
    server = await startScriptServer(({ res }) => {
      res.writeHead(400, 'Bad Things', { 'content-type': 'text/plain' });
      res.end('not json');
    });
    client = testClient(server.url).client;
    const e = (await rejectionOf(client.request('PATCH', '/orgs/o1', { body: {} }))) as ApiError;
    expect([e.status, e.apiMessage]).toEqual([400, 'Bad Things']);
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    server = await startScriptServer(({ res }) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
    });
    client = testClient(server.url).client;
    const e = (await rejectionOf(client.get('/orgs/o1'))) as ApiError;
    expect([e.status, e.apiMessage]).toEqual([200, 'response body is not valid JSON']);
  });

  it('never puts the token in an error message, even when the server echoes it', async () => {
    server = await startScriptServer(({ res, req }) =>
      apiError(res, 401, `invalid credentials: ${req.headers.authorization ?? ''}`),
    );
    const t = testClient(server.url);
    client = t.client;
    const e = (await rejectionOf(client.get('/orgs'))) as ApiError;
    expect(e.apiMessage).toBe('invalid credentials: Bearer [REDACTED]');
    expect(e.message).not.toContain(TOKEN);
    expect(JSON.stringify(e)).not.toContain(TOKEN);
    expect(JSON.stringify(t.logs)).not.toContain(TOKEN);
  });

  it('reports an aborted request as ApiError without retrying', async () => {
    const controller = new AbortController();
    server = await startScriptServer(() => controller.abort());
    client = testClient(server.url).client;
    const e = (await rejectionOf(client.request('GET', '/orgs', { signal: controller.signal }))) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.apiMessage).toBe('request aborted');
    expect(server.received).toHaveLength(1);
  });
});
