import { afterEach, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import type { ApiClient } from '../../src/model/api-client.js';
import { testClient } from './helpers/client.js';
import { json, startScriptServer } from './helpers/script-server.js';
import type { ScriptServer } from './helpers/script-server.js';

let server: ScriptServer;
let client: ApiClient;

afterEach(async () => {
  await client.close();
  await server.close();
});

it('keeps at most `concurrency` requests in flight and queues the rest', async () => {
  const total = 20;
  const limit = 3;
  let inFlight = 0;
  let maxInFlight = 0;
  const held: ServerResponse[] = [];
  // Requests are held until `limit` are open at once (or the last ones arrived), then answered together.
  // A correct client passes whatever the timing. The short pause before answering only gives a client
  // WITHOUT a bound the chance to show more than `limit` open requests (it sends all 20 at once).
  server = await startScriptServer(({ res, index }) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('finish', () => inFlight--);
    held.push(res);
    if (held.length === limit || index === total) {
      const batch = held.splice(0);
      setTimeout(() => {
        for (const r of batch) json(r, 200, { n: index });
      }, 20);
    }
  });
  client = testClient(server.url, { concurrency: limit }).client;

  const results = await Promise.all(Array.from({ length: total }, (_, i) => client.get<{ n: number }>(`/orgs/o${i}`)));

  expect(results).toHaveLength(total);
  expect(server.received).toHaveLength(total);
  expect(maxInFlight).toBeLessThanOrEqual(limit);
  expect(maxInFlight).toBeGreaterThan(1);
  expect(new Set(server.received.map((r) => r.url)).size).toBe(total);
});
