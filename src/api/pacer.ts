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

/** A pacer's state: the budget as last announced, what may not be counted in it yet, and who waits. */
interface Pacing {
  clock: PacerClock;
  maxBlockMs: number;
  budget: Budget | undefined;
  debt: number;
  inFlight: number;
  seq: number;
  /** The newest attempt whose answer set the budget: older answers arriving later are stale. */
  observedSeq: number;
  lastSentAt: number;
  blockedUntil: number;
  /** After a 429: one request may go (once the block ends and nothing is in flight) to learn the budget. */
  probe: boolean;
  /** Foreground first, then background. */
  queues: [Queue, Queue];
  cancelTimer: (() => void) | undefined;
  listeners: Set<(wait: PacerWait) => void>;
  /** The end of the last wait told (the same wait, re-armed by pump, is told once) and when it was told. */
  toldUntil: number;
  toldAt: number;
}

export function createPacer(opts: PacerOptions = {}): Pacer {
  const st: Pacing = {
    clock: opts.clock ?? systemClock,
    maxBlockMs: opts.maxBlockMs ?? 60_000,
    budget: undefined,
    debt: 0,
    inFlight: 0,
    seq: 0,
    observedSeq: 0,
    lastSentAt: Number.NEGATIVE_INFINITY,
    blockedUntil: 0,
    probe: false,
    queues: [
      { items: [], head: 0 },
      { items: [], head: 0 },
    ],
    cancelTimer: undefined,
    listeners: new Set(),
    toldUntil: 0,
    toldAt: Number.NEGATIVE_INFINITY,
  };
  return {
    onLongWait(listener: (wait: PacerWait) => void): () => void {
      st.listeners.add(listener);
      return () => void st.listeners.delete(listener);
    },
    acquire(signal?: AbortSignal, background = false): Ticket | Promise<Ticket> {
      if (!hasWaiting(st.queues[0]) && (!background || !hasWaiting(st.queues[1]))) {
        const now = st.clock.now();
        if (nextSendAt(st, now, background) <= now) return grant(st, now);
      }
      return enqueue(st, signal, background);
    },
    settle(ticket: Ticket, answer: Answer | undefined): void {
      st.inFlight = Math.max(0, st.inFlight - 1);
      if (answer !== undefined) observe(st, ticket.seq, answer);
      pump(st);
    },
    state(): PacerState {
      return {
        budget: st.budget === undefined ? undefined : { ...st.budget },
        debt: st.debt,
        inFlight: st.inFlight,
        waiting: waitingIn(st.queues[0]) + waitingIn(st.queues[1]),
        blockedUntil: st.blockedUntil,
      };
    },
  };
}

const waitingIn = (q: Queue): number => q.items.slice(q.head).filter((w) => !w.done).length;

function hasWaiting(q: Queue): boolean {
  while (q.head < q.items.length && q.items[q.head]!.done) q.head++;
  if (q.head === q.items.length) {
    q.items = [];
    q.head = 0;
  }
  return q.items.length > 0;
}

/** When the next request may go: `now`, a later time, or Infinity (only an answer can tell). */
function nextSendAt(st: Pacing, now: number, background = false): number {
  if (now < st.blockedUntil) return st.blockedUntil;
  const budget = st.budget;
  if (budget === undefined) return now;
  if (budget.resetAt !== undefined && now >= budget.resetAt) {
    // Reset passed: the whole limit is back, less what may have been counted since (the debt stays).
    budget.remaining = budget.limit;
    budget.resetAt = undefined;
  }
  const reserve = background ? Math.ceil(budget.limit * BACKGROUND_RESERVE) : 0;
  const available = budget.remaining - st.debt - reserve;
  if (available >= 1) {
    // While background requests wait, the reserve they leave is the others' to use at once.
    if (!background && hasWaiting(st.queues[1])) return now;
    if (available > (budget.limit - reserve) / 2 || budget.resetAt === undefined) return now;
    return Math.max(now, st.lastSentAt + (budget.resetAt - now) / available);
  }
  if (st.probe && st.inFlight === 0 && !background) return now;
  return budget.resetAt ?? (st.inFlight > 0 ? Number.POSITIVE_INFINITY : now);
}

function grant(st: Pacing, now: number): Ticket {
  st.seq++;
  st.inFlight++;
  if (st.budget !== undefined) st.debt++;
  st.lastSentAt = now;
  st.probe = false;
  return { seq: st.seq };
}

/** A request that may not go yet waits in its queue (and stops waiting when `signal` aborts). */
function enqueue(st: Pacing, signal: AbortSignal | undefined, background: boolean): Promise<Ticket> {
  return new Promise<Ticket>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      if (waiter.done) return;
      waiter.done = true;
      reject(signal?.reason);
      pump(st);
    };
    const waiter: Waiter = {
      resolve,
      reject,
      done: false,
      cleanup: () => signal?.removeEventListener('abort', onAbort),
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    st.queues[background ? 1 : 0].items.push(waiter);
    pump(st);
  });
}

/** Grants the waiters that may go now, in order; arms a timer for the next one (and tells a long wait). */
function pump(st: Pacing): void {
  st.cancelTimer?.();
  st.cancelTimer = undefined;
  for (;;) {
    const background = !hasWaiting(st.queues[0]);
    const q = st.queues[background ? 1 : 0];
    if (!hasWaiting(q)) return;
    const waiter = q.items[q.head]!;
    const now = st.clock.now();
    const at = nextSendAt(st, now, background);
    if (at > now) {
      if (at !== Number.POSITIVE_INFINITY) {
        tellWait(st, at, now);
        st.cancelTimer = st.clock.setTimer(() => {
          st.cancelTimer = undefined;
          pump(st);
        }, at - now);
      }
      return;
    }
    q.head++;
    waiter.done = true;
    waiter.cleanup();
    waiter.resolve(grant(st, now));
  }
}

/** Tells the listeners of a wait until `at`: a long one once, shorter ones at most once per notice interval. */
function tellWait(st: Pacing, at: number, now: number): void {
  if (at <= st.toldUntil || (at - now < LONG_WAIT_MS && now - st.toldAt < WAIT_NOTICE_INTERVAL_MS)) return;
  st.toldUntil = at;
  st.toldAt = now;
  const wait: PacerWait = {
    waitMs: at - now,
    budget: st.budget === undefined ? undefined : { ...st.budget },
    refused: now < st.blockedUntil,
  };
  for (const l of st.listeners) l(wait);
}

/** An answer's rate-limit headers: the budget they announce, and the hold a 429 puts on every request. */
function observe(st: Pacing, ticketSeq: number, answer: Answer): void {
  const now = st.clock.now();
  const info = readRateLimit(answer.headers, now);
  if (info === undefined) {
    // A success without the headers: the API no longer announces a budget, so docops stops pacing.
    if (answer.status >= 200 && answer.status < 300) {
      st.budget = undefined;
      st.debt = 0;
    }
    return;
  }
  if (ticketSeq > st.observedSeq) {
    st.observedSeq = ticketSeq;
    st.budget = { limit: info.limit, remaining: info.remaining, resetAt: info.resetAt };
    st.debt = st.inFlight; // in flight: may or may not be counted in `remaining`
  }
  if (answer.status === 429 && st.budget !== undefined) {
    const retryAfter = first(answer.headers['retry-after']);
    const wait = parseRetryAfter(retryAfter, now) ?? Math.max(0, info.resetAt - now);
    st.blockedUntil = Math.max(st.blockedUntil, now + Math.min(wait, st.maxBlockMs));
    st.budget.remaining = 0;
    st.debt = st.inFlight;
    st.probe = true;
  }
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
