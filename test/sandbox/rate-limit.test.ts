import { describe, expect, it } from 'vitest';
import { parseFaults } from '../../packages/sandbox/src/faults.js';
import { formatRateLimit, parseRateLimit, RateLimiter } from '../../packages/sandbox/src/rate-limit.js';
import { manualClock, request, sandbox, type Res } from './helpers.js';

const TEAMS = '/orgs/org-demo/teams';
const START = '2025-03-01T12:00:00.000Z';
const startSeconds = Date.parse(START) / 1000;

function limitHeaders(res: Res): {
  limit: string | null;
  remaining: string | null;
  reset: string | null;
  retryAfter: string | null;
} {
  return {
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: res.headers.get('x-ratelimit-reset'),
    retryAfter: res.headers.get('retry-after'),
  };
}

describe('parseRateLimit', () => {
  it.each([
    ['600/min', { limit: 600, windowMs: 60_000 }],
    ['120/s', { limit: 120, windowMs: 1000 }],
    ['5000/h', { limit: 5000, windowMs: 3_600_000 }],
    ['100/10s', { limit: 100, windowMs: 10_000 }],
    ['50/1.5s', { limit: 50, windowMs: 1500 }],
    [' 7 / 250ms ', { limit: 7, windowMs: 250 }],
  ])('%s', (text, spec) => {
    expect(parseRateLimit(text)).toEqual(spec);
  });

  it.each(['0/min', '600', '600/day', 'ten/s', '-1/s', '5/0s', '1.5/s', ''])('rejects "%s"', (text) => {
    expect(() => parseRateLimit(text)).toThrow(/invalid rate limit/);
  });

  it('formats back', () => {
    expect(formatRateLimit(parseRateLimit('600/min'))).toBe('600/min');
    expect(formatRateLimit(parseRateLimit('100/10s'))).toBe('100/10000ms');
  });

  it('is part of the fault grammar', () => {
    expect(parseFaults('latency=20ms,rateLimit=600/min')).toEqual({
      latencyMs: 20,
      rateLimit: { limit: 600, windowMs: 60_000 },
    });
    expect(() => parseFaults('rateLimit=fast')).toThrow(
      /invalid fault spec "rateLimit=fast": invalid rate limit "fast"/,
    );
  });
});

describe('RateLimiter (token bucket)', () => {
  it('takes one token per request, refills continuously, answers Retry-After when empty, per key', () => {
    const clock = manualClock(START);
    const limiter = new RateLimiter({ limit: 3, windowMs: 3000 }, () => clock.now().getTime());
    const take = (key = 'a') => limiter.take(key);
    expect(take()).toEqual({
      allowed: true,
      headers: {
        'x-ratelimit-limit': '3',
        'x-ratelimit-remaining': '2',
        'x-ratelimit-reset': String(startSeconds + 1),
        date: clock.now().toUTCString(),
      },
    });
    expect(take().headers['x-ratelimit-remaining']).toBe('1');
    const last = take();
    expect(last.allowed).toBe(true);
    // Empty: full again in 3 s.
    expect(last.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(startSeconds + 3) });
    const refused = take();
    expect(refused.allowed).toBe(false);
    expect(refused.headers).toMatchObject({
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(startSeconds + 3),
      'retry-after': '1',
    });
    // Another key has its own bucket.
    expect(take('b')).toMatchObject({ allowed: true, headers: { 'x-ratelimit-remaining': '2' } });
    // A refused request took nothing: 999 ms later there is still less than one token, at 1000 ms there is one.
    clock.advance(999);
    expect(take().allowed).toBe(false);
    clock.advance(1);
    expect(take()).toMatchObject({ allowed: true, headers: { 'x-ratelimit-remaining': '0' } });
    // Never more than the limit, however long it rests; Reset rounds up to a whole second.
    clock.advance(3_600_000);
    const rested = take();
    expect(rested.headers['x-ratelimit-remaining']).toBe('2');
    expect(rested.headers['x-ratelimit-reset']).toBe(String(startSeconds + 1 + 3600 + 1));
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    const clock = manualClock(START);
    const limiter = new RateLimiter({ limit: 1, windowMs: 5000 }, () => clock.now().getTime());
    limiter.take('a');
    clock.advance(500);
    expect(limiter.take('a').headers['retry-after']).toBe('5');
    clock.advance(4000);
    expect(limiter.take('a').headers['retry-after']).toBe('1');
  });
});

describe('rate limit over HTTP', () => {
  it('puts the headers on every answer and answers 429 with Retry-After when the bucket is empty', async () => {
    const clock = manualClock(START);
    const { sb, call } = await sandbox({ rateLimit: '3/s', now: clock.now });
    const first = await call('GET', TEAMS);
    expect(first.status).toBe(200);
    expect(limitHeaders(first)).toEqual({
      limit: '3',
      remaining: '2',
      reset: String(startSeconds + 1),
      retryAfter: null,
    });
    expect(first.headers.get('date')).toBe(clock.now().toUTCString());
    // Errors carry them too (404, 401 share the "other" bucket of unknown credentials).
    const missing = await call('GET', '/orgs/org-demo/teams/nope');
    expect(missing.status).toBe(404);
    expect(limitHeaders(missing).remaining).toBe('1');
    const unauthorized = await call('GET', TEAMS, undefined, { token: 'wrong' });
    expect(unauthorized.status).toBe(401);
    expect(limitHeaders(unauthorized)).toMatchObject({ limit: '3', remaining: '2' });
    expect((await call('POST', TEAMS.replace('/teams', '/invites'), { emails: ['x@acme.test'] })).status).toBe(200);
    const refused = await call('GET', TEAMS);
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toEqual({
      limit: '3',
      remaining: '0',
      reset: String(startSeconds + 1),
      retryAfter: '1',
    });
    expect(refused.body).toEqual({
      error: { code: 429, message: 'API rate limit exceeded. Please try again in 1 seconds' },
    });
    // A refused write does nothing.
    const before = sb.store.snapshot();
    expect((await call('POST', TEAMS.replace('/teams', '/invites'), { emails: ['y@acme.test'] })).status).toBe(429);
    expect(sb.store.snapshot()).toEqual(before);
    // Introspection is never limited.
    expect((await request(sb, 'GET', '/_sandbox/stats')).status).toBe(200);
    // One token back after a third of a second.
    clock.advance(334);
    expect((await call('GET', TEAMS)).status).toBe(200);
    expect((await call('GET', TEAMS)).status).toBe(429);
    const stats = sb.stats();
    expect(stats.rateLimited).toBe(3);
    expect(stats.byStatus['429']).toBe(3);
    expect(stats.requests.filter((r) => r.rateLimited).map((r) => r.seq)).toEqual([5, 6, 8]);
  });

  it('keeps one bucket per token: the read-only token is not slowed by the admin token', async () => {
    const clock = manualClock(START);
    const { sb, call } = await sandbox({ rateLimit: '2/min', readToken: 'reader', now: clock.now });
    expect((await call('GET', TEAMS)).status).toBe(200);
    expect((await call('GET', TEAMS)).status).toBe(200);
    expect((await call('GET', TEAMS)).status).toBe(429);
    const reader = await call('GET', TEAMS, undefined, { token: 'reader' });
    expect(reader.status).toBe(200);
    expect(limitHeaders(reader).remaining).toBe('1');
    expect(sb.stats().rateLimited).toBe(1);
  });

  it('is set and replaced through PUT /_sandbox/faults, with a fresh bucket', async () => {
    const clock = manualClock(START);
    const { sb, call } = await sandbox({ now: clock.now });
    const plain = await call('GET', TEAMS);
    expect(limitHeaders(plain)).toEqual({ limit: null, remaining: null, reset: null, retryAfter: null });
    expect((await request(sb, 'PUT', '/_sandbox/faults', { spec: 'rateLimit=1/min' })).status).toBe(200);
    expect((await call('GET', TEAMS)).status).toBe(200);
    expect((await call('GET', TEAMS)).status).toBe(429);
    expect((await request(sb, 'PUT', '/_sandbox/faults', { spec: { rateLimit: '2/min' } })).status).toBe(200);
    expect(limitHeaders(await call('GET', TEAMS))).toMatchObject({ limit: '2', remaining: '1' });
    expect((await request(sb, 'PUT', '/_sandbox/faults', { spec: { rateLimit: { limit: 0 } } })).status).toBe(400);
    expect((await request(sb, 'PUT', '/_sandbox/faults', { spec: null })).status).toBe(200);
    expect(limitHeaders(await call('GET', TEAMS)).limit).toBeNull();
  });

  it('refuses a limit given twice', async () => {
    await expect(sandbox({ rateLimit: '1/s', faults: 'rateLimit=2/s' })).rejects.toThrow(
      /either as rateLimit or in the fault spec/,
    );
  });
});
