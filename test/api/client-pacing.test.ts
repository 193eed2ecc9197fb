/**
 * The client against the sandbox's rate limit, over real HTTP, on a fake clock shared by the sandbox (its bucket
 * and its Reset), the client's pacer (its timers) and the client's retry waits: no real time passes, so every
 * check is about counts (429s from the sandbox's stats, requests sent), and elapsed time is virtual.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPacer, type PacerClock } from '../../src/api/pacer.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { ApiError } from '../../src/model/errors.js';
import { startSandbox, teams, type RunningSandbox, type SandboxOptions } from '@docops/sandbox';
import { rejectionOf, testClient } from './helpers/client.js';
import { apiError, json, startScriptServer, type ScriptServer } from './helpers/script-server.js';

const TEAMS = '/orgs/org-demo/teams';
const START = Date.parse('2025-03-01T12:00:00.000Z');

/** Virtual time: advances only when the pacer's timer fires (to its due time) or a retry wait runs. */
function fakeTime(): {
  clock: PacerClock;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  elapsed: () => number;
} {
  let t = START;
  return {
    clock: {
      now: () => t,
      setTimer: (fn, ms) => {
        const due = t + ms;
        const handle = setImmediate(() => {
          t = Math.max(t, due);
          fn();
        });
        return () => clearImmediate(handle);
      },
    },
    now: () => new Date(t),
    sleep: (ms) => {
      t += ms;
      return Promise.resolve();
    },
    elapsed: () => t - START,
  };
}

const sandboxes: RunningSandbox[] = [];
const clients: ApiClient[] = [];
let script: ScriptServer | undefined;
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  await script?.close();
  script = undefined;
});

async function limitedSandbox(
  time: ReturnType<typeof fakeTime>,
  rateLimit: string,
  extra: SandboxOptions = {},
): Promise<RunningSandbox> {
  const sb = await startSandbox({ rateLimit, now: time.now, ...extra });
  sandboxes.push(sb);
  return sb;
}

/** A docops client of its own process: its own pacer on the fake clock; retry waits recorded, then passed. */
function processClient(
  sb: RunningSandbox,
  time: ReturnType<typeof fakeTime>,
  concurrency = 8,
): { client: ApiClient; sleeps: number[] } {
  const sleeps: number[] = [];
  const sleep = (ms: number): Promise<void> => {
    sleeps.push(ms);
    return time.sleep(ms);
  };
  const { client } = testClient(sb.url, {
    token: sb.token,
    concurrency,
    pacer: createPacer({ clock: time.clock }),
    sleep,
  });
  clients.push(client);
  return { client, sleeps };
}

describe('pacing against the sandbox rate limit', () => {
  it('one client never gets a 429 and uses the budget: 200 requests against 20/s', async () => {
    const time = fakeTime();
    const sb = await limitedSandbox(time, '20/s');
    const { client } = processClient(sb, time);
    const lists = await Promise.all(Array.from({ length: 200 }, () => client.listAll(TEAMS)));
    expect(lists.every((l) => l.length === lists[0]!.length && l.length > 0)).toBe(true);
    const stats = sb.stats();
    expect(stats.rateLimited).toBe(0);
    expect(stats.total).toBe(200);
    // Virtual time: at most 1.15 × requests ÷ rate, and no faster than the bucket allows.
    expect(time.elapsed()).toBeLessThanOrEqual(1.15 * 10_000);
    expect(time.elapsed()).toBeGreaterThanOrEqual(9_000);
  });

  it('another process on the same token: the 429 it causes is retried after Retry-After, the create runs once', async () => {
    const time = fakeTime();
    const sb = await limitedSandbox(time, '10/min');
    const b = processClient(sb, time);
    // B learns the budget: 9 left.
    await b.client.get('/orgs/org-demo');
    // Another process spends those 9 (requests straight to the API: no pacer, no virtual time passes).
    for (let i = 0; i < 9; i++)
      expect((await fetch(`${sb.url}${TEAMS}`, { headers: { authorization: `Bearer ${sb.token}` } })).status).toBe(200);
    // B still believes 9 are left: its create goes at once, is refused (Retry-After: 6 s), and is sent again once.
    const created = await b.client.request<{ id: string }>('PUT', TEAMS, {
      body: { title: 'Paced' },
      idempotent: false,
    });
    expect(created.status).toBe(201);
    expect(b.sleeps).toEqual([6000]);
    let stats = sb.stats();
    expect(stats.requests.slice(10).map((r) => [r.method, r.status])).toEqual([
      ['PUT', 429],
      ['PUT', 201],
    ]);
    expect(teams(sb.store).where((t) => t.title === 'Paced')).toHaveLength(1);
    // The create's answer showed the budget spent: B's next reads wait for it instead of colliding.
    await Promise.all([b.client.get(TEAMS), b.client.get('/orgs/org-demo/members'), b.client.get('/orgs/org-demo')]);
    stats = sb.stats();
    expect(stats.rateLimited).toBe(1);
    expect(stats.total).toBe(1 + 9 + 2 + 3);
    expect(time.elapsed()).toBeGreaterThanOrEqual(6000);
  });

  it('two docops processes on one token: every request answered, every 429 retried', async () => {
    const time = fakeTime();
    const sb = await limitedSandbox(time, '10/s');
    const a = processClient(sb, time);
    const b = processClient(sb, time);
    const results = await Promise.all([
      ...Array.from({ length: 60 }, () => a.client.listAll(TEAMS)),
      ...Array.from({ length: 60 }, () => b.client.listAll(TEAMS)),
    ]);
    expect(results.every((r) => r.length > 0)).toBe(true);
    const stats = sb.stats();
    // Only the answers 200 and the rate limit's 429s; each 429 was followed by a retry (120 answered).
    expect(stats.requests.filter((r) => r.status !== 200 && !r.rateLimited)).toEqual([]);
    expect(stats.total - stats.rateLimited).toBe(120);
    expect([...a.sleeps, ...b.sleeps]).toHaveLength(stats.rateLimited);
  });

  it('shares the pacer between clients of one process for the same API and token', async () => {
    const time = fakeTime();
    const sb = await limitedSandbox(time, '10/min');
    // Two clients of the default (shared) pacer; the real clock never matters: they never have to wait.
    const first = testClient(sb.url, { token: sb.token });
    const second = testClient(sb.url, { token: sb.token });
    clients.push(first.client, second.client);
    await first.client.get(TEAMS);
    await second.client.get(TEAMS);
    // What one learned, the other debits: 10 − 2 left; 3 more go at once (above half the limit).
    await Promise.all(Array.from({ length: 3 }, () => second.client.get(TEAMS)));
    expect(sb.stats().rateLimited).toBe(0);
    // Now 5 are left: the next request of either client is paced (spread over the minute), not sent at once.
    const controller = new AbortController();
    const waiting = first.client.request('GET', TEAMS, { signal: controller.signal });
    const settled = await Promise.race([
      waiting.then(
        () => 'sent',
        () => 'failed',
      ),
      new Promise((r) => setImmediate(() => setImmediate(() => r('waiting')))),
    ]);
    expect(settled).toBe('waiting');
    controller.abort();
    const err = await rejectionOf(waiting);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/request aborted/);
    expect(sb.stats().total).toBe(5);
  });
});

describe('a 429 without Retry-After', () => {
  it('waits until its X-RateLimit-Reset (the platform documents only these headers on its 429)', async () => {
    const resetIn = 12;
    let answeredAt = 0;
    let reset = 0;
    script = await startScriptServer(({ res, index }) => {
      if (index !== 1) return json(res, 200, { ok: true });
      answeredAt = Date.now();
      reset = Math.floor(answeredAt / 1000) + resetIn;
      return apiError(res, 429, 'API rate limit exceeded', { 'x-ratelimit-reset': String(reset) });
    });
    const t = testClient(script.url);
    clients.push(t.client);
    expect(await t.client.get('/orgs')).toEqual({ ok: true });
    const doneAt = Date.now();
    // The wait is the reset time (epoch seconds) less the client's clock when it read the answer, which lies
    // between the server's answer and the end of the call: bounds from clocks, not from how fast this machine is.
    expect(t.sleeps).toHaveLength(1);
    expect(t.sleeps[0]).toBeGreaterThanOrEqual(reset * 1000 - doneAt);
    expect(t.sleeps[0]).toBeLessThanOrEqual(reset * 1000 - answeredAt);
    expect(t.sleeps[0]).toBeGreaterThan((resetIn - 2) * 1000);
  });
});
