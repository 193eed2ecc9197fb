import { describe, expect, it } from 'vitest';
import type { ApiClient, ListEnvelope } from '../../src/model/api-client.js';
import { ApiError, SafetyError } from '../../src/model/errors.js';
import type { HttpMethod } from '../../src/model/plan.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { reconcileOnce } from '../../src/engine/run.js';
import { KINDS } from '../../src/kinds/index.js';
import { DEFAULT_SAFETY } from '../../src/safety/config.js';
import { safetyGate } from '../../src/safety/gate.js';
import { fetchWhoami } from '../../src/safety/whoami.js';
import { manifest } from './helpers.js';

const memberItem = (i: number) => ({
  object: 'member',
  id: `u${i}`,
  role: i === 0 ? 'admin' : 'edit',
  user: { object: 'user', id: `u${i}`, email: `m${i}@x.io` },
  sso: false,
});

/**
 * A client whose lists come in pages of `pageSize` (following next.page like the real client) and whose
 * page number `failPage` (1-based) fails; every call is recorded.
 */
function pagedClient(items: unknown[], pageSize: number, failPage?: number): ApiClient & { calls: string[] } {
  const calls: string[] = [];
  const page = async (path: string, n: number): Promise<ListEnvelope<unknown>> => {
    calls.push(`GET ${path}?page=${n}`);
    if (n === failPage) throw new ApiError('GET', path, 503, 'service unavailable');
    const slice = items.slice((n - 1) * pageSize, n * pageSize);
    return {
      items: slice,
      count: slice.length,
      ...(n * pageSize < items.length ? { next: { page: String(n + 1) } } : {}),
    };
  };
  const self: ApiClient & { calls: string[] } = {
    baseUrl: 'memory://',
    calls,
    async request<T>(method: HttpMethod, path: string) {
      calls.push(`${method} ${path}`);
      return { status: 204, body: undefined as T | undefined, headers: {} };
    },
    async get<T>(path: string): Promise<T> {
      calls.push(`GET ${path}`);
      return { object: 'user', id: 'u0', email: 'm0@x.io' } as T;
    },
    async *paginate<T>(path: string): AsyncIterable<T> {
      for (let n = 1; ; n++) {
        const env = await page(path, n);
        yield* env.items as T[];
        if (!env.next) return;
      }
    },
    async listAll<T>(path: string): Promise<T[]> {
      const out: T[] = [];
      for await (const x of self.paginate<T>(path)) out.push(x);
      return out;
    },
    async close() {},
  };
  return self;
}

/** Members of o1 with prune on: the manifest keeps only m0, so every other listed member would be pruned. */
const desired = () => {
  const kind = KINDS.find((k) => k.kind === 'Members')!;
  return new Map([
    [
      'Members',
      kind.toDesired(manifest('Members', 'o1', { members: [{ email: 'm0@x.io', role: 'admin' }] }, true), () => {}),
    ],
  ]);
};

describe('fail-closed fetch', () => {
  it('plans deletes from a complete list', async () => {
    const client = pagedClient(
      Array.from({ length: 5 }, (_, i) => memberItem(i)),
      2,
    );
    const { plan } = await computePlan(client, KINDS, desired());
    expect(plan.steps.filter((s) => s.phase === 'prune').map((s) => s.key)).toEqual([
      'm1@x.io',
      'm2@x.io',
      'm3@x.io',
      'm4@x.io',
    ]);
  });

  it('rejects the plan when the second page of a list fails: no steps, no writes', async () => {
    const client = pagedClient(
      Array.from({ length: 5 }, (_, i) => memberItem(i)),
      2,
      2,
    );
    await expect(computePlan(client, KINDS, desired())).rejects.toBeInstanceOf(ApiError);
    let gated = false;
    const run = reconcileOnce({
      client,
      kinds: KINDS,
      desired: desired(),
      mode: 'apply',
      gate: async () => {
        gated = true;
      },
    });
    await expect(run).rejects.toThrow(/503/);
    expect(gated).toBe(false);
    expect(client.calls.filter((c) => !c.startsWith('GET '))).toEqual([]);
    expect(client.calls).toContain('GET /orgs/o1/members?page=2');
  });
});

describe('the gate inside reconcileOnce', () => {
  it('refuses before any write and exits 3', async () => {
    // 12 members, the manifest keeps 1: 11 prunes of 12 (92 %) over the 25 % limit.
    const client = pagedClient(
      Array.from({ length: 12 }, (_, i) => memberItem(i)),
      5,
    );
    const gate = safetyGate(KINDS, {
      config: DEFAULT_SAFETY,
      force: false,
      desiredCount: 1,
      whoami: () => fetchWhoami(client),
    });
    const run = reconcileOnce({ client, kinds: KINDS, desired: desired(), mode: 'apply', gate });
    await expect(run).rejects.toBeInstanceOf(SafetyError);
    await expect(run).rejects.toMatchObject({ exitCode: 3 });
    expect(client.calls.filter((c) => !c.startsWith('GET '))).toEqual([]);
    expect(client.calls).toContain('GET /user');
  });

  it('with --force applies, reporting what it lifted', async () => {
    const client = pagedClient(
      Array.from({ length: 12 }, (_, i) => memberItem(i)),
      5,
    );
    const lifted: string[] = [];
    const gate = safetyGate(KINDS, {
      config: DEFAULT_SAFETY,
      force: true,
      desiredCount: 1,
      whoami: { id: 'u0' },
      onOverridden: (vs) => lifted.push(...vs.map((v) => v.rule)),
    });
    const outcome = await reconcileOnce({ client, kinds: KINDS, desired: desired(), mode: 'apply', gate });
    expect(lifted).toEqual(['delete-fraction']);
    expect(outcome.report?.applied).toHaveLength(11);
    expect(client.calls.filter((c) => c.startsWith('DELETE '))).toHaveLength(11);
  });
});

describe('fetchWhoami', () => {
  it('reads the token user from GET /user', async () => {
    const client = pagedClient([], 1);
    expect(await fetchWhoami(client)).toEqual({ id: 'u0', email: 'm0@x.io' });
    expect(client.calls).toEqual(['GET /user']);
  });

  it('fails when the answer has no user id', async () => {
    const client = { ...pagedClient([], 1), get: async <T>() => ({ object: 'user' }) as T };
    await expect(fetchWhoami(client)).rejects.toThrow(/no user id/);
  });
});
