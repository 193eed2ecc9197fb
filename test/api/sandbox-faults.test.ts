import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { DEMO_ORG_ID, startSandbox } from '@docops/sandbox';
import type { RunningSandbox } from '@docops/sandbox';

let sandbox: RunningSandbox;
let client: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo' });
  client = createClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    concurrency: 4,
    // 40% of attempts fail below; 16 attempts make a request failing for good vanishingly unlikely.
    retry: { maxRetries: 15, minDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 },
  });
});

afterAll(async () => {
  await client.close();
  await sandbox.close();
});

it('many GETs through a faulty sandbox give only correct answers', async () => {
  const org = `/orgs/${DEMO_ORG_ID}`;
  const read = (): Promise<unknown[]> =>
    Promise.all([
      client.get(org),
      client.listAll(`${org}/members`),
      client.listAll(`${org}/teams`),
      client.listAll(`${org}/translations`),
    ]);
  const expected = await read();
  expect((expected[1] as unknown[]).length).toBeGreaterThan(0);

  sandbox.setFaults('429=0.2,5xx=0.1,reset=0.05,resetAfter=0.05,retryAfter=0,seed=7');
  sandbox.resetStats();
  const rounds = await Promise.all(Array.from({ length: 50 }, () => read()));

  for (const answer of rounds) expect(answer).toEqual(expected);
  const faults = new Set(
    sandbox
      .stats()
      .requests.map((r) => r.fault)
      .filter((f) => f !== undefined),
  );
  expect([...faults].sort()).toEqual(['429', '5xx', 'reset', 'resetAfter']);
});
