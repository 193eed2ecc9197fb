/**
 * A discrete-event simulation for pacer tests: virtual time that jumps from event to event, clients that send
 * through a pacer with a fixed latency, and servers that count like a token bucket (the sandbox's own limiter)
 * or in fixed windows. Deterministic: no real time passes, events at the same time run in scheduling order.
 */
import type { Answer, Pacer, PacerClock } from '../../../src/api/pacer.js';
import { RateLimiter } from '../../../packages/sandbox/src/rate-limit.js';

export const EPOCH = Date.parse('2025-03-01T12:00:00.000Z');

interface Event {
  at: number;
  order: number;
  fn: () => void;
  cancelled: boolean;
}

export class Sim {
  t = EPOCH;
  private events: Event[] = [];
  private order = 0;

  readonly clock: PacerClock = {
    now: () => this.t,
    setTimer: (fn, ms) => {
      const ev = this.schedule(ms, fn);
      return () => void (ev.cancelled = true);
    },
  };

  schedule(ms: number, fn: () => void): Event {
    const ev: Event = { at: this.t + Math.max(0, ms), order: this.order++, fn, cancelled: false };
    this.events.push(ev);
    return ev;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.schedule(ms, resolve));
  }

  /** Run until no event is left; promise callbacks run between events. */
  async run(): Promise<void> {
    await flush();
    for (;;) {
      this.events = this.events.filter((e) => !e.cancelled);
      if (this.events.length === 0) return;
      let next = this.events[0]!;
      for (const e of this.events) if (e.at < next.at || (e.at === next.at && e.order < next.order)) next = e;
      this.events.splice(this.events.indexOf(next), 1);
      this.t = Math.max(this.t, next.at);
      next.fn();
      await flush();
    }
  }
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface SimServer {
  /** One request arrives; its answer. */
  take(): Answer;
}

/** The sandbox's token bucket. */
export function bucketServer(sim: Sim, limit: number, windowMs: number): SimServer {
  const limiter = new RateLimiter({ limit, windowMs }, () => sim.t);
  return {
    take: () => {
      const d = limiter.take('token');
      return { status: d.allowed ? 200 : 429, headers: d.headers };
    },
  };
}

/** Fixed windows aligned to multiples of `windowMs`; Reset is the window's end in epoch seconds. */
export function windowServer(sim: Sim, limit: number, windowMs: number): SimServer {
  let window = -1;
  let used = 0;
  return {
    take: () => {
      const w = Math.floor(sim.t / windowMs);
      if (w !== window) {
        window = w;
        used = 0;
      }
      const end = (w + 1) * windowMs;
      const allowed = used < limit;
      if (allowed) used++;
      const headers: Record<string, string> = {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(limit - used),
        'x-ratelimit-reset': String(Math.ceil(end / 1000)),
      };
      if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((end - sim.t) / 1000)));
      return { status: allowed ? 200 : 429, headers };
    },
  };
}

/** A server that announces nothing. */
export const plainServer: SimServer = { take: () => ({ status: 200, headers: {} }) };

export interface RunResult {
  elapsedMs: number;
  /** Answers 429 (each retried after its Retry-After). */
  refused: number;
  /** Requests that had to wait for the pacer (acquire returned a promise). */
  paced: number;
  /** Virtual arrival times at the server, in order. */
  arrivals: number[];
}

/**
 * Start `requests` jobs sent through `pacer` by `concurrency` workers, `latencyMs` per round trip (the server
 * counts a request half-way); a 429 is retried after its Retry-After, like the client's retry loop. Call
 * `result()` after `sim.run()`.
 */
export function startClient(
  sim: Sim,
  pacer: Pacer,
  server: SimServer,
  opts: { requests: number; concurrency: number; latencyMs: number; background?: boolean; delayMs?: number },
): { result(): RunResult } {
  const started = sim.t + (opts.delayMs ?? 0);
  const out: RunResult = { elapsedMs: 0, refused: 0, paced: 0, arrivals: [] };
  let next = 0;
  let done = 0;
  const send = async (): Promise<Answer> => {
    const pending = pacer.acquire(undefined, opts.background === true);
    if (pending instanceof Promise) out.paced++;
    const ticket = pending instanceof Promise ? await pending : pending;
    await sim.sleep(opts.latencyMs / 2);
    out.arrivals.push(sim.t);
    const answer = server.take();
    await sim.sleep(opts.latencyMs / 2);
    pacer.settle(ticket, answer);
    return answer;
  };
  const worker = async (): Promise<void> => {
    while (next < opts.requests) {
      next++;
      for (;;) {
        const answer = await send();
        if (answer.status !== 429) break;
        out.refused++;
        const retryAfter = answer.headers['retry-after'];
        await sim.sleep(Number(typeof retryAfter === 'string' ? retryAfter : '1') * 1000);
      }
      done++;
    }
  };
  const begin = (): void => {
    for (let i = 0; i < opts.concurrency; i++) void worker();
  };
  if (opts.delayMs) sim.schedule(opts.delayMs, begin);
  else begin();
  return {
    result: () => {
      if (done !== opts.requests)
        throw new Error(`stuck: ${done} of ${opts.requests} requests done when no event was left`);
      out.elapsedMs = Math.max(...out.arrivals, started) + opts.latencyMs / 2 - started;
      return out;
    },
  };
}

/** One client alone: start it, run the simulation to the end. */
export async function runClient(
  sim: Sim,
  pacer: Pacer,
  server: SimServer,
  opts: { requests: number; concurrency: number; latencyMs: number },
): Promise<RunResult> {
  const client = startClient(sim, pacer, server, opts);
  await sim.run();
  return client.result();
}
