/** A client wired for tests: records every backoff wait instead of sleeping, fixed jitter, collects logs. */
import { createClient } from '../../../src/api/client.js';
import type { ClientOptions, ResponseInfo } from '../../../src/api/client.js';
import type { ApiClient } from '../../../src/model/api-client.js';

export const TOKEN = 'tok_SECRET_4f9a2c7e';

export interface TestClient {
  client: ApiClient;
  /** Every wait the client asked for, in order. */
  sleeps: number[];
  responses: ResponseInfo[];
  logs: { level: string; obj: Record<string, unknown>; msg: string }[];
}

export function testClient(baseUrl: string, overrides: Partial<ClientOptions> = {}): TestClient {
  const sleeps: number[] = [];
  const responses: ResponseInfo[] = [];
  const logs: TestClient['logs'] = [];
  const log = (level: string) => (obj: Record<string, unknown>, msg: string) => logs.push({ level, obj, msg });
  const client = createClient({
    baseUrl,
    token: TOKEN,
    retry: { maxRetries: 3, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 },
    random: () => 0.5,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    onResponse: (info) => responses.push(info),
    logger: { debug: log('debug'), info: log('info'), warn: log('warn') },
    ...overrides,
  });
  return { client, sleeps, responses, logs };
}

/** The rejection of a promise that must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}
