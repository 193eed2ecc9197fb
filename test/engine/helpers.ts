import type { ApiClient, ApiResponse } from '../../src/model/api-client.js';
import type { HttpMethod, Step } from '../../src/model/plan.js';
import { sealStep } from '../../src/model/refs.js';

/** A step as kinds make them: refs in its requests sealed (placeholders plus recorded slots). */
export function step(partial: Partial<Step> & Pick<Step, 'id'>): Step {
  return sealStep({
    action: 'create',
    phase: 'create',
    kind: 'Thing',
    org: 'o1',
    key: partial.id,
    wave: 0,
    before: null,
    after: {},
    dependsOn: [],
    requests: [],
    ...partial,
  });
}

export interface Recorded {
  method: HttpMethod;
  path: string;
  body: unknown;
}

/** An in-memory ApiClient that records writes and answers through a handler. */
export function recordingClient(
  handler: (r: Recorded) => unknown = () => ({ id: 'x' }),
): ApiClient & { calls: Recorded[]; maxInFlight: number } {
  let inFlight = 0;
  const self = {
    baseUrl: 'memory://',
    calls: [] as Recorded[],
    maxInFlight: 0,
    async request<T>(method: HttpMethod, path: string, options: { body?: unknown } = {}): Promise<ApiResponse<T>> {
      inFlight++;
      self.maxInFlight = Math.max(self.maxInFlight, inFlight);
      try {
        await Promise.resolve();
        await new Promise((r) => setImmediate(r));
        const rec = { method, path, body: options.body };
        self.calls.push(rec);
        const body = handler(rec);
        return { status: 200, body: body as T, headers: {} };
      } finally {
        inFlight--;
      }
    },
    async get<T>(path: string): Promise<T> {
      return (await self.request<T>('GET', path)).body as T;
    },
    async *paginate<T>(): AsyncIterable<T> {},
    async listAll<T>(): Promise<T[]> {
      return [];
    },
    async close() {},
  };
  return self;
}
