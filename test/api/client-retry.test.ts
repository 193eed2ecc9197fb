import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/errors.js';
import type { HttpMethod } from '../../src/model/plan.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { rejectionOf, testClient, TOKEN } from './helpers/client.js';
import { apiError, closedPort, json, resetConnection, startScriptServer } from './helpers/script-server.js';
import type { ScriptServer } from './helpers/script-server.js';

let server: ScriptServer | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('retryable statuses', () => {
  it('honours Retry-After in seconds on 429, then succeeds', async () => {
    server = await startScriptServer(({ res, index }) =>
      index === 1 ? apiError(res, 429, 'slow down', { 'retry-after': '7' }) : json(res, 200, { ok: 1 }),
    );
    const t = testClient(server.url);
    client = t.client;
    expect(await client.get('/orgs')).toEqual({ ok: 1 });
    expect(server.received).toHaveLength(2);
    expect(t.sleeps).toEqual([7000]);
  });

  it('Retry-After: 0 retries at once; an HTTP-date is honoured; both are capped by maxRetryAfterMs', async () => {
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    const answers = ['0', inTwoMinutes, '3600'];
    server = await startScriptServer(({ res, index }) => {
      const retryAfter = answers[index - 1];
      if (retryAfter === undefined) json(res, 200, {});
      else apiError(res, 429, 'slow down', { 'retry-after': retryAfter });
    });
    const t = testClient(server.url, {
      retry: { maxRetries: 5, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 90_000 },
    });
    client = t.client;
    await client.get('/orgs');
    expect(server.received).toHaveLength(4);
    expect(t.sleeps[0]).toBe(0);
    // HTTP-dates have one-second resolution, so the wait lands within a second of the two minutes, then the cap.
    expect(t.sleeps[1]).toBe(90_000);
    expect(t.sleeps[2]).toBe(90_000);
  });

  it('retries 429 up to maxRateLimitRetries, counted apart from the other failures', async () => {
    // 429 ×4, 503, 429, 503, 200: 5 rate limits (budget 5) and 2 other failures (budget 3) are all retried.
    const script = [429, 429, 429, 429, 503, 429, 503];
    server = await startScriptServer(({ res, index }) => {
      const status = script[index - 1];
      if (status === undefined) json(res, 200, { ok: true });
      else apiError(res, status, 'again', status === 429 ? { 'retry-after': '0' } : {});
    });
    const t = testClient(server.url, {
      retry: { maxRetries: 3, maxRateLimitRetries: 5, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 },
    });
    client = t.client;
    expect(await client.get('/orgs')).toEqual({ ok: true });
    expect(server.received).toHaveLength(8);

    // The sixth 429 in a row is final.
    server.setHandler(({ res }) => apiError(res, 429, 'slow down', { 'retry-after': '0' }));
    server.received.length = 0;
    const e = (await rejectionOf(client.get('/orgs'))) as ApiError;
    expect([e.status, e.effect, e.unreachable]).toEqual([429, 'none', false]);
    expect(server.received).toHaveLength(6);
  });

  it.each([429, 502, 503, 504])(
    'retries %i up to maxRetries with exponential jittered backoff, then throws',
    async (status) => {
      server = await startScriptServer(({ res }) => apiError(res, status, `upstream said ${status}`));
      const t = testClient(server.url, {
        retry: { maxRetries: 3, maxRateLimitRetries: 3, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 },
      });
      client = t.client;
      const e = (await rejectionOf(client.get('/orgs/o1/teams'))) as ApiError;

      expect(e).toBeInstanceOf(ApiError);
      expect(e.effect).toBe(status === 429 ? 'none' : 'maybe');
      expect(e.unreachable).toBe(false);
      expect([e.method, e.path, e.status]).toEqual(['GET', '/orgs/o1/teams', status]);
      expect(e.apiMessage).toBe(`upstream said ${status} (after 4 attempts)`);
      expect(server.received).toHaveLength(4);
      // random() = 0.5: half of min(maxDelay 1000, 100 * 2^n)
      expect(t.sleeps).toEqual([50, 100, 200]);
      expect(t.responses.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
      expect(t.logs.filter((l) => l.level === 'debug')).toHaveLength(3);
    },
  );

  it('caps the backoff at maxDelayMs', async () => {
    server = await startScriptServer(({ res }) => apiError(res, 503, 'down'));
    const t = testClient(server.url, {
      random: () => 0.999,
      retry: { maxRetries: 5, minDelayMs: 100, maxDelayMs: 300, maxRetryAfterMs: 1000 },
    });
    client = t.client;
    await rejectionOf(client.get('/orgs'));
    expect(t.sleeps).toEqual([99, 199, 299, 299, 299]);
  });

  it.each([400, 401, 404, 409, 500])('does not retry %i', async (status) => {
    server = await startScriptServer(({ res }) => apiError(res, status, 'no'));
    const t = testClient(server.url);
    client = t.client;
    const e = (await rejectionOf(client.request('PUT', '/orgs/o1/teams', { body: { title: 'x' } }))) as ApiError;
    expect(e.status).toBe(status);
    expect(server.received).toHaveLength(1);
    expect(t.sleeps).toEqual([]);
  });
});

describe('connection failures', () => {
  it.each<HttpMethod>(['GET', 'PUT', 'PATCH', 'DELETE'])(
    '%s is retried after a connection reset mid-request',
    async (method) => {
      server = await startScriptServer(({ req, res, index }) =>
        index === 1 ? resetConnection(req) : json(res, 200, { done: true }),
      );
      const t = testClient(server.url);
      client = t.client;
      const res = await client.request(
        method,
        '/orgs/o1/teams/t1',
        method === 'GET' || method === 'DELETE' ? {} : { body: { title: 't' } },
      );
      expect(res.body).toEqual({ done: true });
      expect(server.received.map((r) => r.method)).toEqual([method, method]);
      expect(t.responses[0]?.status).toBeUndefined();
    },
  );

  it('a GET whose response breaks off mid-body is re-requested whole', async () => {
    const full = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => `item-${i}`) });
    server = await startScriptServer(({ req, res, index }) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(full) });
      if (index === 1) res.write(full.slice(0, 100), () => resetConnection(req));
      else res.end(full);
    });
    client = testClient(server.url).client;
    expect(await client.get('/orgs/o1/members')).toEqual(JSON.parse(full));
    expect(server.received).toHaveLength(2);
  });

  it('a POST the server received is NOT retried when the connection resets', async () => {
    server = await startScriptServer(({ req }) => resetConnection(req));
    const t = testClient(server.url);
    client = t.client;
    const e = (await rejectionOf(client.request('POST', '/orgs/o1/sites', { body: { title: 'Docs' } }))) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect([e.method, e.path, e.status]).toEqual(['POST', '/orgs/o1/sites', undefined]);
    expect(e.apiMessage).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    expect(server.received).toHaveLength(1);
    expect(t.sleeps).toEqual([]);
    // It may have been processed, and one reset does not make the API unreachable.
    expect([e.effect, e.unreachable]).toEqual(['maybe', false]);
  });

  it.each([502, 503, 504])('a POST answered %i is NOT retried (a gateway may have forwarded it)', async (status) => {
    server = await startScriptServer(({ res }) => apiError(res, status, 'gateway'));
    client = testClient(server.url).client;
    const e = (await rejectionOf(client.request('POST', '/orgs/o1/sites', { body: { title: 'Docs' } }))) as ApiError;
    expect(e.status).toBe(status);
    expect(server.received).toHaveLength(1);
    expect([e.effect, e.unreachable]).toEqual(['maybe', false]);
  });

  it('a POST marked idempotent (a move) IS retried after a 5xx and a reset, like a PUT', async () => {
    server = await startScriptServer(({ req, res, index }) =>
      index === 1
        ? apiError(res, 502, 'gateway')
        : index === 2
          ? resetConnection(req)
          : json(res, 200, { moved: true }),
    );
    client = testClient(server.url).client;
    const res = await client.request('POST', '/collections/c1/move', { body: { parent: 'c2' }, idempotent: true });
    expect(res.body).toEqual({ moved: true });
    expect(server.received).toHaveLength(3);
  });

  it('a request refused with a 4xx after an attempt that may have been processed still says it may have been', async () => {
    server = await startScriptServer(({ res, index }) =>
      index === 1 ? apiError(res, 503, 'busy') : apiError(res, 404, 'gone'),
    );
    client = testClient(server.url).client;
    const e = (await rejectionOf(client.request('DELETE', '/orgs/o1/teams/t1'))) as ApiError;
    expect([e.status, e.effect]).toEqual([404, 'maybe']);
    server.setHandler(({ res }) => apiError(res, 404, 'gone'));
    const first = (await rejectionOf(client.request('DELETE', '/orgs/o1/teams/t2'))) as ApiError;
    expect([first.status, first.effect]).toEqual([404, 'none']);
  });

  it('a POST answered 429 IS retried (the server rejected it unprocessed)', async () => {
    server = await startScriptServer(({ res, index }) =>
      index === 1 ? apiError(res, 429, 'rate', { 'retry-after': '1' }) : json(res, 201, { id: 's1' }),
    );
    const t = testClient(server.url);
    client = t.client;
    const res = await client.request('POST', '/orgs/o1/sites', { body: { title: 'Docs' } });
    expect([res.status, res.body]).toEqual([201, { id: 's1' }]);
    expect(server.received).toHaveLength(2);
    expect(t.sleeps).toEqual([1000]);
  });

  it('a POST IS retried when the connection was refused (the server never saw it)', async () => {
    const port = await closedPort();
    const late = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(body);
        json(res, 201, { id: 'created' });
      });
    });
    const received: string[] = [];
    const sleeps: number[] = [];
    // The wait after the first (refused) attempt is where the server comes up: no timing involved.
    const t = testClient(`http://127.0.0.1:${port}/v1`, {
      sleep: async (ms) => {
        sleeps.push(ms);
        if (!late.listening) await new Promise<void>((resolve) => late.listen(port, '127.0.0.1', () => resolve()));
      },
    });
    client = t.client;
    try {
      const res = await client.request('POST', '/orgs/o1/teams', { body: { title: 'x' } });
      expect([res.status, res.body]).toEqual([201, { id: 'created' }]);
      expect(received).toEqual(['{"title":"x"}']);
      expect(sleeps).toHaveLength(1);
      expect(t.responses.map((r) => r.status)).toEqual([undefined, 201]);
    } finally {
      await client.close();
      client = undefined;
      late.closeAllConnections();
      await new Promise<void>((resolve) => late.close(() => resolve()));
    }
  });

  it('gives up on a refused connection after maxRetries with the error code in the message', async () => {
    const port = await closedPort();
    const t = testClient(`http://127.0.0.1:${port}/v1`);
    client = t.client;
    const e = (await rejectionOf(client.get('/orgs'))) as ApiError;
    expect(e.status).toBeUndefined();
    expect(e.apiMessage).toMatch(/ECONNREFUSED.*\(after 4 attempts\)$/);
    expect(t.sleeps).toHaveLength(3);
    // Never answered, retries ran out: the API is unreachable, and nothing was processed.
    expect([e.effect, e.unreachable]).toEqual(['none', true]);
    const post = (await rejectionOf(client.request('POST', '/orgs/o1/teams', { body: { title: 'x' } }))) as ApiError;
    expect([post.effect, post.unreachable]).toEqual(['none', true]);
  });

  it('is not unreachable when any attempt got an HTTP answer', async () => {
    server = await startScriptServer(({ req, res, index }) =>
      index === 1 ? apiError(res, 503, 'busy') : resetConnection(req),
    );
    client = testClient(server.url).client;
    const e = (await rejectionOf(client.get('/orgs'))) as ApiError;
    expect(e.status).toBeUndefined();
    expect(server.received).toHaveLength(4);
    expect([e.effect, e.unreachable]).toEqual(['maybe', false]);
  });

  it('a response timeout is retried for GET but not for POST', async () => {
    const held: (() => void)[] = [];
    server = await startScriptServer(({ res, index, received }) => {
      if (index === 1 || received.method === 'POST') {
        held.push(() => res.destroy());
        return;
      }
      json(res, 200, { late: false });
    });
    const t = testClient(server.url, { timeoutMs: 200 });
    client = t.client;
    expect(await client.get('/orgs')).toEqual({ late: false });
    const e = (await rejectionOf(client.request('POST', '/orgs/o1/teams', { body: {} }))) as ApiError;
    expect(e.apiMessage).toMatch(/UND_ERR_HEADERS_TIMEOUT|Headers Timeout/);
    // The server may still be working on it.
    expect(e.effect).toBe('pending');
    expect(server.received.map((r) => r.method)).toEqual(['GET', 'GET', 'POST']);
    for (const release of held) release();
  });

  it('keeps the token out of log lines and retry errors', async () => {
    server = await startScriptServer(({ res }) => apiError(res, 503, `overloaded for ${TOKEN}`));
    const t = testClient(server.url);
    client = t.client;
    const e = (await rejectionOf(client.get('/orgs'))) as ApiError;
    expect(t.logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(t.logs)).not.toContain(TOKEN);
    expect(e.message).not.toContain(TOKEN);
    expect(e.message).toContain('[REDACTED]');
  });

  it('a real pino logger at debug level writes retry lines without the token', async () => {
    server = await startScriptServer(({ res, index }) =>
      index < 3 ? apiError(res, 503, `no ${TOKEN}`) : json(res, 200, {}),
    );
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    client = testClient(server.url, { logger: pino({ level: 'debug' }, sink) }).client;
    await client.get('/orgs/o1');
    expect(lines.filter((l) => l.includes('retrying GET /orgs/o1'))).toHaveLength(2);
    expect(lines.join('')).not.toContain(TOKEN);
  });
});
