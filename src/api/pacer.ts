/**
 * Pacing to the rate limit the API announces (X-RateLimit-Limit / -Remaining / -Reset, rate-limit-headers.ts).
 * One pacer is shared by every client of a process that talks to the same API with the same token
 * (`sharedPacer`), so the budget is counted once whatever sends. The client asks it before every attempt
 * (`acquire`) and tells it every answer (`settle`).
 *
 * The model, safe whether the server counts in fixed windows or refills a token bucket: the latest answer says
 * `remaining` requests may be sent until `resetAt`, and `limit` are available again at `resetAt`. Requests the
 * server may not have counted in that answer (in flight when it arrived, sent since) are debited from it, so
 * docops never sends more than the server has left. Within that budget:
 * - above half the limit, requests go at once (a run that fits in the budget is never slowed);
 * - below it, the rest is spread evenly until the reset. Against a token bucket this holds the server's budget
 *   near half the limit and sends exactly at its refill rate (every refilled token is used, none is refused);
 *   against fixed windows it uses the whole window's budget by its end;
 * - with nothing left, nothing is sent until the reset (or until an answer shows more).
 * A 429 still happens when another process spends the same budget: it holds every request of this process until
 * its Retry-After (X-RateLimit-Reset when there is none), then one request goes to learn the budget again, while
 * the client's retry loop retries the refused request itself.
 *
 * Answers without the headers change nothing: until one announces a budget, and again after a success that
 * announces none, `acquire` returns at once (no timer, no queue).
 *
 * Background requests (the informer's periodic full read, `acquire(signal, true)`) yield: a waiting request of any
 * other kind goes first, they leave a tenth of the limit (BACKGROUND_RESERVE) to the others, and while they wait
 * the others do not spread themselves (the reserve is theirs): a drifted member is read at once, not behind a
 * 19-minute full read.
 */
import { createHash } from 'node:crypto';
import { readRateLimit, type HeaderBag } from './rate-limit-headers.js';
import { parseRetryAfter } from './retry.js';

export interface PacerClock {
  /** Wall-clock ms since the epoch (X-RateLimit-Reset is an epoch time). */
  now(): number;
  /** Call `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: PacerClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    return () => clearTimeout(handle);
  },
};

/** One attempt allowed to go; hand it back to `settle`. */
export interface Ticket {
  readonly seq: number;
}

/** The HTTP answer of an attempt (undefined for an attempt that got none). */
export interface Answer {
  status: number;
  headers: HeaderBag;
}

export interface PacerState {
  /** Undefined while no budget is known (no pacing). */
  budget: { limit: number; remaining: number; resetAt: number | undefined } | undefined;
  /** Requests the budget may not include yet. */
  debt: number;
  inFlight: number;
  waiting: number;
  blockedUntil: number;
}

/** A wait for the budget, as told to a person (see `onLongWait`). */
export interface PacerWait {
  /** How long until the next request may go. */
  waitMs: number;
  /** The budget as the latest answer announced it (absent only while a 429 holds everything). */
  budget: { limit: number; remaining: number; resetAt: number | undefined } | undefined;
  /** Whether a 429 (the server refused) holds the requests, rather than docops's own pacing. */
  refused: boolean;
}

/** The share of the limit background requests leave to the others. */
export const BACKGROUND_RESERVE = 0.1;

/** A wait this long is always told (once). */
export const LONG_WAIT_MS = 3000;
/** Shorter waits (pacing spread over the window) are told when pacing starts, then at most once per this. */
export const WAIT_NOTICE_INTERVAL_MS = 30_000;

export interface Pacer {
  /**
   * Told when requests start to wait for the budget, then at most every WAIT_NOTICE_INTERVAL_MS, and of every
   * wait of LONG_WAIT_MS or more (once each): a run the rate limit slows says so. Returns a function that stops.
   */
  onLongWait(listener: (wait: PacerWait) => void): () => void;
  /**
   * A ticket at once when a request may go now, else a promise of one (rejected when `signal` aborts).
   * `background`: it yields to every other request (see the file comment).
   */
  acquire(signal?: AbortSignal, background?: boolean): Ticket | Promise<Ticket>;
  /** Exactly once per ticket, as soon as the attempt's answer (status and headers) or its failure is known. */
  settle(ticket: Ticket, answer: Answer | undefined): void;
  state(): PacerState;
}

export interface PacerOptions {
  clock?: PacerClock;
  /** The longest a 429 holds the other requests (default 60 s, the client's default maxRetryAfterMs). */
  maxBlockMs?: number;
}

interface Waiter {
  resolve(ticket: Ticket): void;
  reject(err: unknown): void;
  done: boolean;
  cleanup(): void;
}

/** A FIFO of waiters with a read index (shift() would be O(n) per grant). */
interface Queue {
  items: Waiter[];
  head: number;
}

interface Budget {
  limit: number;
  remaining: number;
  /** Undefined after the announced reset passed and no answer told the next one yet. */
  resetAt: number | undefined;
}

export function createPacer(opts: PacerOptions = {}): Pacer {
  const clock = opts.clock ?? systemClock;
  const maxBlockMs = opts.maxBlockMs ?? 60_000;
  let budget: Budget | undefined;
  let debt = 0;
  let inFlight = 0;
  let seq = 0;
  /** The newest attempt whose answer set the budget: older answers arriving later are stale. */
  let observedSeq = 0;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let blockedUntil = 0;
  /** After a 429: one request may go (once the block ends and nothing is in flight) to learn the budget. */
  let probe = false;
  // Foreground first, then background.
  const queues: [Queue, Queue] = [
    { items: [], head: 0 },
    { items: [], head: 0 },
  ];
  const waitingIn = (q: Queue): number => q.items.slice(q.head).filter((w) => !w.done).length;
  const hasWaiting = (q: Queue): boolean => {
    while (q.head < q.items.length && q.items[q.head]!.done) q.head++;
    if (q.head === q.items.length) {
      q.items = [];
      q.head = 0;
    }
    return q.items.length > 0;
  };
  let cancelTimer: (() => void) | undefined;
  const listeners = new Set<(wait: PacerWait) => void>();
  /** The end of the last wait told (the same wait, re-armed by pump, is told once) and when it was told. */
  let toldUntil = 0;
  let toldAt = Number.NEGATIVE_INFINITY;

  /** When the next request may go: `now`, a later time, or Infinity (only an answer can tell). */
  function nextSendAt(now: number, background = false): number {
    if (now < blockedUntil) return blockedUntil;
    if (budget === undefined) return now;
    if (budget.resetAt !== undefined && now >= budget.resetAt) {
      // Reset passed: the whole limit is back, less what may have been counted since (the debt stays).
      budget.remaining = budget.limit;
      budget.resetAt = undefined;
    }
    const reserve = background ? Math.ceil(budget.limit * BACKGROUND_RESERVE) : 0;
    const available = budget.remaining - debt - reserve;
    if (available >= 1) {
      // While background requests wait, the reserve they leave is the others' to use at once.
      if (!background && hasWaiting(queues[1])) return now;
      if (available > (budget.limit - reserve) / 2 || budget.resetAt === undefined) return now;
      return Math.max(now, lastSentAt + (budget.resetAt - now) / available);
    }
    if (probe && inFlight === 0 && !background) return now;
    return budget.resetAt ?? (inFlight > 0 ? Number.POSITIVE_INFINITY : now);
  }

  function grant(now: number): Ticket {
    seq++;
    inFlight++;
    if (budget !== undefined) debt++;
    lastSentAt = now;
    probe = false;
    return { seq };
  }

  function pump(): void {
    cancelTimer?.();
    cancelTimer = undefined;
    for (;;) {
      const background = !hasWaiting(queues[0]);
      const q = queues[background ? 1 : 0];
      if (!hasWaiting(q)) return;
      const waiter = q.items[q.head]!;
      const now = clock.now();
      const at = nextSendAt(now, background);
      if (at > now) {
        if (at !== Number.POSITIVE_INFINITY) {
          if (at > toldUntil && (at - now >= LONG_WAIT_MS || now - toldAt >= WAIT_NOTICE_INTERVAL_MS)) {
            toldUntil = at;
            toldAt = now;
            const wait: PacerWait = {
              waitMs: at - now,
              budget: budget === undefined ? undefined : { ...budget },
              refused: now < blockedUntil,
            };
            for (const l of listeners) l(wait);
          }
          cancelTimer = clock.setTimer(() => {
            cancelTimer = undefined;
            pump();
          }, at - now);
        }
        return;
      }
      q.head++;
      waiter.done = true;
      waiter.cleanup();
      waiter.resolve(grant(now));
    }
  }

  function observe(ticketSeq: number, answer: Answer): void {
    const now = clock.now();
    const info = readRateLimit(answer.headers, now);
    if (info === undefined) {
      // A success without the headers: the API no longer announces a budget, so docops stops pacing.
      if (answer.status >= 200 && answer.status < 300) {
        budget = undefined;
        debt = 0;
      }
      return;
    }
    if (ticketSeq > observedSeq) {
      observedSeq = ticketSeq;
      budget = { limit: info.limit, remaining: info.remaining, resetAt: info.resetAt };
      debt = inFlight; // in flight: may or may not be counted in `remaining`
    }
    if (answer.status === 429 && budget !== undefined) {
      const retryAfter = first(answer.headers['retry-after']);
      const wait = parseRetryAfter(retryAfter, now) ?? Math.max(0, info.resetAt - now);
      blockedUntil = Math.max(blockedUntil, now + Math.min(wait, maxBlockMs));
      budget.remaining = 0;
      debt = inFlight;
      probe = true;
    }
  }

  return {
    onLongWait(listener: (wait: PacerWait) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    acquire(signal?: AbortSignal, background = false): Ticket | Promise<Ticket> {
      if (!hasWaiting(queues[0]) && (!background || !hasWaiting(queues[1]))) {
        const now = clock.now();
        if (nextSendAt(now, background) <= now) return grant(now);
      }
      return new Promise<Ticket>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(signal.reason);
          return;
        }
        const onAbort = (): void => {
          if (waiter.done) return;
          waiter.done = true;
          reject(signal?.reason);
          pump();
        };
        const waiter: Waiter = {
          resolve,
          reject,
          done: false,
          cleanup: () => signal?.removeEventListener('abort', onAbort),
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queues[background ? 1 : 0].items.push(waiter);
        pump();
      });
    },

    settle(ticket: Ticket, answer: Answer | undefined): void {
      inFlight = Math.max(0, inFlight - 1);
      if (answer !== undefined) observe(ticket.seq, answer);
      pump();
    },

    state(): PacerState {
      return {
        budget: budget === undefined ? undefined : { ...budget },
        debt,
        inFlight,
        waiting: waitingIn(queues[0]) + waitingIn(queues[1]),
        blockedUntil,
      };
    },
  };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const shared = new Map<string, { pacer: Pacer; users: number }>();

/**
 * The pacer of every client of this process for one API and token (the budget is per token). `release` when the
 * client closes; the last release forgets it.
 */
export function sharedPacer(baseUrl: string, token: string | undefined): { pacer: Pacer; release(): void } {
  // A digest, so the map never holds the token itself.
  const key = `${baseUrl}\n${createHash('sha256')
    .update(token ?? '')
    .digest('hex')}`;
  let entry = shared.get(key);
  if (entry === undefined) {
    entry = { pacer: createPacer(), users: 0 };
    shared.set(key, entry);
  }
  entry.users++;
  const held = entry;
  let released = false;
  return {
    pacer: held.pacer,
    release: () => {
      if (released) return;
      released = true;
      held.users--;
      if (held.users === 0 && shared.get(key) === held) shared.delete(key);
    },
  };
}
