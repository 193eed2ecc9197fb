/**
 * The sandbox's optional rate limit: a token bucket per bearer token, announced on every /v1 answer with the
 * headers the platform documents (`X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`), and a 429
 * with `Retry-After` when the bucket is empty.
 *
 * `LIMIT/WINDOW` (e.g. `600/min`, `120/s`, `5000/h`, `100/10s`): the bucket holds LIMIT requests and refills
 * continuously at LIMIT per WINDOW. Every request that arrives takes one token; a request that finds less than
 * one is answered 429 (it takes nothing). Header semantics (docs/dev/api-differences.md):
 *   X-RateLimit-Limit      LIMIT (the bucket's size)
 *   X-RateLimit-Remaining  whole tokens left after this request
 *   X-RateLimit-Reset      UTC epoch seconds, rounded up, at which the bucket is full again (LIMIT available) if
 *                          nothing else is taken — the platform's "the window resets"
 *   Retry-After            (429 only) whole seconds, rounded up and at least 1, until one token is available
 *   Date                   the sandbox's clock (which tests may set), the time Reset is counted from
 */

export interface RateLimitSpec {
  /** The bucket's size: requests allowed per window. */
  limit: number;
  /** The window over which a full bucket refills, in ms. */
  windowMs: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** `600/min`, `120/s`, `5000/h`, `100/10s`, `50/1.5s`. */
export function parseRateLimit(text: string): RateLimitSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|sec|m|min|h)\s*$/.exec(text);
  const limit = m ? Number(m[1]) : 0;
  const windowMs = m ? Number(m[2] ?? '1') * UNITS[m[3]!]! : 0;
  if (!m || limit < 1 || !Number.isSafeInteger(limit) || !(windowMs >= 1)) {
    throw new Error(
      `invalid rate limit "${text}": expected LIMIT/WINDOW with LIMIT ≥ 1, e.g. 600/min, 120/s, 5000/h or 100/10s`,
    );
  }
  return { limit, windowMs };
}

export function formatRateLimit(spec: RateLimitSpec): string {
  const named = Object.entries(UNITS).find(([unit, ms]) => ms === spec.windowMs && unit !== 'sec' && unit !== 'm');
  return named ? `${spec.limit}/${named[0]}` : `${spec.limit}/${spec.windowMs}ms`;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The rate-limit headers for the answer (with `retry-after` when refused). */
  headers: Record<string, string>;
}

const EPSILON = 1e-9;

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  /** Tokens per ms. */
  private readonly rate: number;

  constructor(
    readonly spec: RateLimitSpec,
    private readonly now: () => number,
  ) {
    this.rate = spec.limit / spec.windowMs;
  }

  /** Take one token from `key`'s bucket (call once per request, at arrival). */
  take(key: string): RateLimitDecision {
    const now = this.now();
    const { limit } = this.spec;
    const b = this.buckets.get(key) ?? { tokens: limit, at: now };
    b.tokens = Math.min(limit, b.tokens + Math.max(0, now - b.at) * this.rate);
    b.at = now;
    this.buckets.set(key, b);
    // Refill is fractional: a whole token that float arithmetic left a hair short of 1 still counts.
    const allowed = b.tokens >= 1 - EPSILON;
    if (allowed) b.tokens = Math.max(0, b.tokens - 1);
    const fullAt = now + (limit - b.tokens) / this.rate;
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.floor(b.tokens + EPSILON)),
      'x-ratelimit-reset': String(Math.ceil(fullAt / 1000)),
      date: new Date(now).toUTCString(),
    };
    if (!allowed) headers['retry-after'] = String(Math.max(1, Math.ceil((1 - b.tokens) / this.rate / 1000)));
    return { allowed, headers };
  }
}
