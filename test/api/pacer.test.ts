/**
 * The pacer (src/api/pacer.ts) in a deterministic simulation (helpers/sim.ts): virtual time, a fixed latency,
 * servers counting like the sandbox's token bucket or in fixed windows. "Elapsed" is virtual time, so the checks
 * on it are logic (how much of the budget the pacer uses), not timings.
 */
import { describe, expect, it } from 'vitest';
import { LONG_WAIT_MS, WAIT_NOTICE_INTERVAL_MS, createPacer, sharedPacer } from '../../src/api/pacer.js';
import {
  EPOCH,
  Sim,
  bucketServer,
  plainServer,
  runClient,
  startClient,
  windowServer,
  type SimServer,
} from './helpers/sim.js';

type Kind = 'bucket' | 'window';
const serverOf = (sim: Sim, kind: Kind, limit: number, windowMs: number): SimServer =>
  kind === 'bucket' ? bucketServer(sim, limit, windowMs) : windowServer(sim, limit, windowMs);

describe('pacing to the announced budget (one process)', () => {
  it.each([
    // kind, limit, window, requests, concurrency, latency
    ['bucket', 20, 1000, 300, 8, 20],
    ['bucket', 117, 1000, 1165, 8, 20], // the bench's shape: the plan of the 10,000-member org in ~10 s
    ['bucket', 600, 60_000, 1000, 8, 20],
    ['bucket', 50, 10_000, 200, 16, 5],
    ['window', 100, 1000, 1000, 8, 20],
    ['window', 60, 60_000, 200, 8, 20],
  ] as [Kind, number, number, number, number, number][])(
    '%s of %i per %i ms, %i requests at concurrency %i: never refused, within 1.15 × requests ÷ rate',
    async (kind, limit, windowMs, requests, concurrency, latencyMs) => {
      const sim = new Sim();
      const r = await runClient(sim, createPacer({ clock: sim.clock }), serverOf(sim, kind, limit, windowMs), {
        requests,
        concurrency,
        latencyMs,
      });
      expect(r.refused).toBe(0);
      const boundMs = (requests / limit) * windowMs;
      expect(r.elapsedMs).toBeLessThanOrEqual(1.15 * boundMs);
      // The pacer did pace (the budget was smaller than the run), and the server's limit held.
      expect(r.paced).toBeGreaterThan(0);
      expect(r.elapsedMs).toBeGreaterThanOrEqual(((requests - limit) / limit) * windowMs);
    },
  );

  it('without a pacer the same run is refused (the scenario can fail)', async () => {
    const sim = new Sim();
    const unpaced = {
      onLongWait: () => () => {},
      acquire: () => ({ seq: 0 }),
      settle: () => {},
      state: () => createPacer().state(),
    };
    const r = await runClient(sim, unpaced, bucketServer(sim, 20, 1000), {
      requests: 300,
      concurrency: 8,
      latencyMs: 20,
    });
    expect(r.refused).toBeGreaterThan(100);
  });

  it('tells when the budget starts to slow a run, then now and then, and every long wait once; nothing while the budget lasts', async () => {
    const sim = new Sim();
    const pacer = createPacer({ clock: sim.clock });
    const waits: { waitMs: number; remaining: number | undefined; refused: boolean }[] = [];
    pacer.onLongWait((w) => waits.push({ waitMs: w.waitMs, remaining: w.budget?.remaining, refused: w.refused }));
    const fits = await runClient(sim, pacer, windowServer(sim, 100, 60_000), {
      requests: 40,
      concurrency: 4,
      latencyMs: 20,
    });
    expect([fits.refused, waits]).toEqual([0, []]);
    // 60 a minute, 150 requests: the budget runs out, the rest waits for the window's reset.
    const sim2 = new Sim();
    const slow = createPacer({ clock: sim2.clock });
    const told: number[] = [];
    const stop = slow.onLongWait((w) => told.push(w.waitMs));
    const r = await runClient(sim2, slow, windowServer(sim2, 60, 60_000), {
      requests: 150,
      concurrency: 8,
      latencyMs: 20,
    });
    expect(r.refused).toBe(0);
    // 150 requests at 60 a minute take over two minutes: told at the start, then at most twice a minute.
    expect(r.elapsedMs).toBeGreaterThan(120_000);
    expect(told.length).toBeGreaterThanOrEqual(2);
    expect(told.length).toBeLessThanOrEqual(
      Math.ceil(r.elapsedMs / WAIT_NOTICE_INTERVAL_MS) + told.filter((ms) => ms >= LONG_WAIT_MS).length,
    );
    expect(told.length).toBeLessThan(r.paced / 4);
    stop();
  });

  it('a run that fits in the budget is not slowed at all', async () => {
    const sim = new Sim();
    // 40 requests against 100 per minute: 5 rounds of 8 at 20 ms.
    const r = await runClient(sim, createPacer({ clock: sim.clock }), bucketServer(sim, 100, 60_000), {
      requests: 40,
      concurrency: 8,
      latencyMs: 20,
    });
    expect(r).toMatchObject({ refused: 0, paced: 0, elapsedMs: 100 });
  });

  it('an API that announces nothing is never paced', async () => {
    const sim = new Sim();
    const pacer = createPacer({ clock: sim.clock });
    const r = await runClient(sim, pacer, plainServer, { requests: 500, concurrency: 8, latencyMs: 20 });
    expect(r).toMatchObject({ refused: 0, paced: 0 });
    expect(pacer.state().budget).toBeUndefined();
  });

  it('stops pacing when the API stops announcing a budget', async () => {
    const sim = new Sim();
    const pacer = createPacer({ clock: sim.clock });
    const t0 = pacer.acquire() as { seq: number };
    const t1 = pacer.acquire() as { seq: number };
    const reset = String(Math.ceil(sim.t / 1000) + 60);
    pacer.settle(t0, {
      status: 200,
      headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    });
    // The budget is spent: the next request would wait a minute, unless the API no longer announces one.
    const waiting = pacer.acquire();
    expect(waiting).toBeInstanceOf(Promise);
    pacer.settle(t1, { status: 200, headers: {} });
    expect(pacer.state().budget).toBeUndefined();
    await expect(waiting).resolves.toMatchObject({ seq: 3 });
    expect(sim.t).toBe(EPOCH);
    expect(pacer.acquire()).not.toBeInstanceOf(Promise);
  });

  it('ignores an answer that is older than the one the budget came from', () => {
    const sim = new Sim();
    const pacer = createPacer({ clock: sim.clock });
    const a = pacer.acquire() as { seq: number };
    const b = pacer.acquire() as { seq: number };
    const reset = String(Math.ceil(sim.t / 1000) + 60);
    pacer.settle(b, {
      status: 200,
      headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '50', 'x-ratelimit-reset': reset },
    });
    pacer.settle(a, {
      status: 200,
      headers: { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '51', 'x-ratelimit-reset': reset },
    });
    // `a` was in flight when b's answer came: it stays debited (it may or may not be in b's count).
    expect(pacer.state()).toMatchObject({ budget: { remaining: 50 }, debt: 1, inFlight: 0 });
  });
});

describe('background requests yield', () => {
  // A full read in the background at 60 a minute; 30 s in, five small reads of the informer.
  const scenario = async (foregroundIsBackground: boolean) => {
    const sim = new Sim();
    const pacer = createPacer({ clock: sim.clock });
    const server = bucketServer(sim, 60, 60_000);
    const full = startClient(sim, pacer, server, { requests: 200, concurrency: 8, latencyMs: 20, background: true });
    const small = startClient(sim, pacer, server, {
      requests: 5,
      concurrency: 1,
      latencyMs: 20,
      delayMs: 30_000,
      background: foregroundIsBackground,
    });
    await sim.run();
    return { full: full.result(), small: small.result() };
  };

  it('five small reads go at once beside a 200-request full read at 60 a minute; none refused', async () => {
    const { full, small } = await scenario(false);
    expect(full.refused + small.refused).toBe(0);
    expect(small.elapsedMs).toBeLessThan(1000);
    // The full read still used the budget: about 200 requests at 60 a minute, less the reserve.
    expect(full.elapsedMs).toBeLessThanOrEqual(1.3 * (200 / 60) * 60_000);
  });

  it('the same reads queued as background wait behind the full read (the scenario can fail)', async () => {
    const { small } = await scenario(true);
    expect(small.elapsedMs).toBeGreaterThan(10_000);
  });
});

describe('sharing a token with another process', () => {
  it('two pacing processes on one token: every request done, the limit used, none refused', async () => {
    const sim = new Sim();
    const server = bucketServer(sim, 20, 1000);
    const a = startClient(sim, createPacer({ clock: sim.clock }), server, {
      requests: 200,
      concurrency: 8,
      latencyMs: 20,
    });
    const b = startClient(sim, createPacer({ clock: sim.clock }), server, {
      requests: 200,
      concurrency: 8,
      latencyMs: 20,
    });
    await sim.run();
    const [ra, rb] = [a.result(), b.result()];
    expect(ra.refused + rb.refused).toBe(0);
    expect(Math.max(ra.elapsedMs, rb.elapsedMs)).toBeLessThanOrEqual(1.15 * (400 / 20) * 1000);
  });

  it('a 429 holds every request of the process until its Retry-After, then one goes to learn the budget', async () => {
    const sim = new Sim();
    const limit = 10;
    const inner = bucketServer(sim, limit, 10_000);
    // Another process empties the bucket right after our first request, unseen by our pacer.
    let first = true;
    const server: SimServer = {
      take: () => {
        const answer = inner.take();
        if (first) {
          first = false;
          for (let i = 1; i < limit; i++) inner.take();
        }
        return answer;
      },
    };
    const r = await runClient(sim, createPacer({ clock: sim.clock }), server, {
      requests: 30,
      concurrency: 8,
      latencyMs: 20,
    });
    // Nothing was known at first: all 8 workers went at once (10 ms); one got the last token the other process
    // left, 7 were refused with Retry-After 1 s and Remaining 0, the bucket full again only 10 s later.
    expect(r.arrivals.slice(0, 8)).toEqual(Array(8).fill(EPOCH + 10));
    expect(r.refused).toBe(7);
    const refusedAt = EPOCH + 10;
    const after = r.arrivals.slice(8);
    // The 429s held every request of the process (also the next job of the worker that succeeded) for 1 s…
    expect(after[0]).toBeGreaterThanOrEqual(refusedAt + 1000);
    // …then one request went (after its Retry-After, not at the bucket's reset 10 s later) and came back before the next.
    expect(after[0]).toBeLessThan(refusedAt + 2000);
    expect(after[1]! - after[0]!).toBeGreaterThanOrEqual(20);
  });
});

describe('acquire', () => {
  it('rejects when the signal aborts while waiting, and the next waiter still gets its turn', async () => {
    const sim = new Sim();
    const pacer = createPacer({ clock: sim.clock });
    const t0 = pacer.acquire() as { seq: number };
    const reset = String(Math.ceil(sim.t / 1000) + 10);
    pacer.settle(t0, {
      status: 200,
      headers: { 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    });
    const controller = new AbortController();
    const aborted = pacer.acquire(controller.signal);
    const next = pacer.acquire();
    expect(pacer.state().waiting).toBe(2);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(pacer.state().waiting).toBe(1);
    await sim.run(); // the reset arrives
    await expect(next).resolves.toMatchObject({ seq: 2 });
    // The budget (1) is spent again: a request whose signal is already aborted is refused at once.
    await expect(pacer.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });
});

describe('sharedPacer', () => {
  it('is one per base URL and token, forgotten after the last client releases it', () => {
    const a = sharedPacer('http://x/v1', 'tok-1');
    const b = sharedPacer('http://x/v1', 'tok-1');
    const other = sharedPacer('http://x/v1', 'tok-2');
    const otherApi = sharedPacer('http://y/v1', 'tok-1');
    expect(b.pacer).toBe(a.pacer);
    expect(other.pacer).not.toBe(a.pacer);
    expect(otherApi.pacer).not.toBe(a.pacer);
    a.release();
    a.release(); // twice is once
    expect(sharedPacer('http://x/v1', 'tok-1').pacer).toBe(b.pacer);
    for (const h of [b, other, otherApi]) h.release();
  });
});
