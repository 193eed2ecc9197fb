/**
 * The API client never follows a redirect: a 3xx from the API (or from something pretending to be it) is a failed
 * request that names the status and says it was not followed, and no request, token or body reaches the origin
 * the redirect names. Reads and writes alike, the settle reads included (they are GETs through this client).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/errors.js';
import { settle } from '../../src/engine/settle.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { startElsewhere, redirect, type Elsewhere } from '../helpers/elsewhere.js';
import { rejectionOf, testClient, TOKEN } from './helpers/client.js';
import { startScriptServer, type ScriptServer } from './helpers/script-server.js';

let server: ScriptServer;
let elsewhere: Elsewhere;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.close();
  await elsewhere.close();
});

describe('redirects', () => {
  for (const [method, status] of [
    ['GET', 307],
    ['GET', 302],
    ['GET', 301],
    ['POST', 307],
    ['PATCH', 308],
    ['DELETE', 303],
  ] as const) {
    it(`${method} answered ${status} to another origin: not followed, not retried, a failed request saying so`, async () => {
      elsewhere = await startElsewhere({ items: [] });
      server = await startScriptServer(({ res }) => redirect(res, status, `${elsewhere.origin}/v1/orgs/o1/teams`));
      const t = testClient(server.url);
      client = t.client;
      const body = method === 'GET' || method === 'DELETE' ? {} : { body: { title: 'Platform' } };
      const err = await rejectionOf(client.request(method, '/orgs/o1/teams', body));

      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(status);
      expect((err as ApiError).message).toBe(
        `${method} /orgs/o1/teams failed with ${status}: answered a redirect, which docops does not follow: it sends requests only to the configured API URL`,
      );
      expect(elsewhere.received).toEqual([]);
      expect(server.received).toHaveLength(1); // not retried: a redirect is an answer, not a passing failure
      expect(t.sleeps).toEqual([]);
      // No refusal: a 303 after a POST even says the server processed it, so apply must look before creating again.
      expect((err as ApiError).effect).toBe('maybe');
      expect((err as ApiError).message).not.toContain(TOKEN);
    });
  }

  it('the settle reads after an OpenAPI spec upload: a redirect fails the step, the other origin is never read', async () => {
    elsewhere = await startElsewhere({ processing: { state: 'done' } });
    server = await startScriptServer(({ res }) => redirect(res, 307, `${elsewhere.origin}/v1/orgs/o1/openapi/pets`));
    client = testClient(server.url).client;
    const spec = { path: '/orgs/o1/openapi/pets', until: [{ field: 'processing.state', value: 'done' }], reads: 3 };
    const err = await rejectionOf(settle(client, spec, 'PUT /orgs/o1/openapi/pets', { sleep: async () => {} }));

    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toContain('GET /orgs/o1/openapi/pets failed with 307: answered a redirect');
    expect(elsewhere.received).toEqual([]);
    expect(server.received).toHaveLength(1);
  });
});
