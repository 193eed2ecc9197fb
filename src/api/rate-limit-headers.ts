/**
 * Reading the rate-limit headers the platform documents (the OpenAPI spec declares none of them):
 *   X-RateLimit-Limit      requests allowed in the current window
 *   X-RateLimit-Remaining  requests left in it
 *   X-RateLimit-Reset      when the window resets: the platform documents UTC epoch seconds (as GitHub does)
 *
 * Tolerant where the value is unambiguous: a Reset of at least 10^9 is epoch seconds (10^9 s is 2001-09-09; no
 * window lasts 31 years), a smaller one is seconds until the reset (the IETF RateLimit draft's form); fractions
 * are kept; an HTTP-date is accepted too. Epoch times come from the server's clock: when the answer's `Date`
 * shows the local clock ahead of the server's by more than Date's one-second resolution, the reset is moved
 * later by that much, so a fast local clock never makes docops send before the server has reset.
 */

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** Local clock (ms since the epoch) at which `limit` requests are available again. */
  resetAt: number;
}

/** The rate-limit state an answer announces, or undefined when any of the three headers is missing or unreadable. */
export function readRateLimit(headers: HeaderBag, now: number): RateLimitInfo | undefined {
  const limit = leadingInteger(first(headers['x-ratelimit-limit']));
  const remaining = leadingInteger(first(headers['x-ratelimit-remaining']));
  const resetAt = readResetAt(headers, now);
  if (limit === undefined || remaining === undefined || resetAt === undefined || limit < 1) return undefined;
  return { limit, remaining: Math.min(remaining, limit), resetAt };
}

/** X-RateLimit-Reset as a local time in ms (see the module comment), or undefined. */
export function readResetAt(headers: HeaderBag, now: number): number | undefined {
  const raw = first(headers['x-ratelimit-reset'])?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const value = Number(raw);
    return value >= EPOCH_SECONDS_FROM ? value * 1000 + localClockAhead(headers, now) : now + value * 1000;
  }
  // An HTTP-date names its month; Date.parse alone would also take odd text such as "-5".
  const at = /[a-z]{3}/i.test(raw) ? Date.parse(raw) : Number.NaN;
  return Number.isNaN(at) ? undefined : at + localClockAhead(headers, now);
}

const EPOCH_SECONDS_FROM = 1e9;

/** How far the local clock is ahead of the server's, beyond the `Date` header's resolution (0 when unknown). */
function localClockAhead(headers: HeaderBag, now: number): number {
  const date = first(headers['date']);
  const server = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isNaN(server) ? 0 : Math.max(0, now - (server + 1000));
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `60`, or the first member of a list such as `60, 60;w=60`. */
function leadingInteger(value: string | undefined): number | undefined {
  const m = value === undefined ? null : /^\s*(\d+)\s*(?:[,;]|$)/.exec(value);
  return m ? Number(m[1]) : undefined;
}
