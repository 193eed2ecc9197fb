/**
 * The retry policy, as pure functions: which failures are retried for which method, and how long to wait.
 *
 * Why not undici's `interceptors.retry` / RetryHandler: its `retry` callback could express the method rules
 * below, but when a connection breaks after a 2xx response's headers arrived it "resumes" the body with a
 * `Range` request. A JSON API answers that with a full 200, which RetryHandler rejects
 * (UND_ERR_REQ_RETRY "server does not support the range header…"), so a GET reset mid-body could never
 * recover. The client (src/api/client.ts) therefore runs one small attempt loop around `Pool.request`
 * and asks this module what to do after each failed attempt.
 *
 * POST safety: a retried create must never create twice. A POST is retried only when
 *  - the TCP connection was never established (refused, DNS failure, connect timeout): the server
 *    provably never saw the request; or
 *  - the server answered 429. Rate limiting rejects a request before it is processed (RFC 6585), so
 *    the create did not happen and retrying after Retry-After is safe.
 * A POST that may have reached the server (reset after sending, socket closed, timeout waiting for the
 * response, 502/503/504 from a gateway that may have forwarded it) is not retried. What it may have done is
 * reported on the final ApiError (`effect`, see attemptEffect) so apply can look before it creates again.
 *
 * A 429 without Retry-After waits until its X-RateLimit-Reset (the platform's documented 429 carries only the
 * X-RateLimit-* headers), else backs off like any other failure.
 *
 * Budgets: a 429 is the server pacing us, not a failing request, so 429s are counted apart from other failures
 * (`maxRateLimitRetries`, default 10, beside `maxRetries`, default 5): under heavy rate limiting a request is not
 * given up after a few polite refusals.
 */
import type { RequestEffect } from '../model/errors.js';

export interface RetryOptions {
  /** Retries after failures other than 429 (so at most maxRetries + 1 attempts when nothing is rate limited). */
  maxRetries: number;
  /** Retries after 429 answers, counted apart from maxRetries. */
  maxRateLimitRetries: number;
  minDelayMs: number;
  maxDelayMs: number;
  /** Upper bound for a server-requested Retry-After wait. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 5,
  maxRateLimitRetries: 10,
  minDelayMs: 250,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/** How one attempt failed. */
export type AttemptFailure =
  | {
      kind: 'status';
      status: number;
      retryAfter?: string | undefined;
      /** A 429's X-RateLimit-Reset as ms from now (used when there is no Retry-After). */
      rateLimitResetMs?: number | undefined;
    }
  | { kind: 'network'; code: string | undefined };

const IDEMPOTENT = new Set(['GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** Errors raised before a TCP connection exists: the request cannot have reached the server. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** Transport errors where the request may or may not have been received. */
const MAYBE_RECEIVED = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Response timeouts: the server may still be working on the request after the client gave up waiting. */
const STILL_RUNNING = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

export function neverReachedServer(code: string | undefined): boolean {
  return code !== undefined && NEVER_CONNECTED.has(code);
}

/** May this failure be retried for this method (ignoring the attempt budget)? */
export function isRetryable(method: string, failure: AttemptFailure): boolean {
  if (failure.kind === 'status') {
    if (!RETRYABLE_STATUS.has(failure.status)) return false;
    return isIdempotent(method) || failure.status === 429;
  }
  if (neverReachedServer(failure.code)) return true;
  return isIdempotent(method) && failure.code !== undefined && MAYBE_RECEIVED.has(failure.code);
}

/**
 * What one failed attempt may have done on the server: nothing when the connection was never made or the
 * server refused the request with a 4xx (429 included); `maybe` after a 5xx, a 3xx (never followed), or a
 * connection that broke once the request may have been sent (the server is done with it either way); `pending`
 * when no answer came in time (the server may still process it).
 */
export function attemptEffect(failure: AttemptFailure | { kind: 'aborted' }): RequestEffect {
  if (failure.kind === 'aborted') return 'pending';
  // A 3xx is no refusal: a 303 after a POST even says it was processed (the client follows no redirect).
  if (failure.kind === 'status')
    return failure.status >= 500 || (failure.status >= 300 && failure.status < 400) ? 'maybe' : 'none';
  if (neverReachedServer(failure.code)) return 'none';
  return failure.code !== undefined && STILL_RUNNING.has(failure.code) ? 'pending' : 'maybe';
}

const EFFECT_RANK: Record<RequestEffect, number> = { none: 0, maybe: 1, pending: 2 };

/** The more uncertain of two effects: over all attempts of a request, the worst one is what may have happened. */
export function worseEffect(a: RequestEffect, b: RequestEffect): RequestEffect {
  return EFFECT_RANK[b] > EFFECT_RANK[a] ? b : a;
}

/** Whether this failure counts against maxRateLimitRetries rather than maxRetries. */
export function isRateLimit(failure: AttemptFailure): boolean {
  return failure.kind === 'status' && failure.status === 429;
}

/** Retry-After as milliseconds from `now` (delta-seconds or HTTP-date); undefined when absent or unparsable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with full jitter: uniform in [0, min(maxDelay, minDelay * 2^retryIndex)). */
export function backoffDelay(retryIndex: number, opts: RetryOptions, random: () => number): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.minDelayMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next attempt, or undefined when the failure is final.
 * `retriesDone` counts retries already made from this failure's budget (429s: maxRateLimitRetries; anything
 * else: maxRetries); 0 after the first such failure. A Retry-After header (for a 429 without one, its
 * X-RateLimit-Reset) wins over the computed backoff, capped by maxRetryAfterMs.
 */
export function nextDelay(
  method: string,
  failure: AttemptFailure,
  retriesDone: number,
  opts: RetryOptions,
  random: () => number,
  now: number,
): number | undefined {
  const budget = isRateLimit(failure) ? opts.maxRateLimitRetries : opts.maxRetries;
  if (retriesDone >= budget || !isRetryable(method, failure)) return undefined;
  const requested =
    failure.kind === 'status'
      ? (parseRetryAfter(failure.retryAfter, now) ?? (isRateLimit(failure) ? failure.rateLimitResetMs : undefined))
      : undefined;
  if (requested !== undefined) return Math.min(requested, opts.maxRetryAfterMs);
  return backoffDelay(retriesDone, opts, random);
}

/** The error code of a transport failure (also looks inside `cause` and AggregateError). */
export function networkErrorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const inner = current instanceof AggregateError ? current.errors[0] : (current as { cause?: unknown }).cause;
    current = inner;
  }
  return undefined;
}
