import { describe, expect, it } from 'vitest';
import { readRateLimit, readResetAt } from '../../src/api/rate-limit-headers.js';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const nowSeconds = NOW / 1000;

describe('X-RateLimit-Reset', () => {
  it('reads epoch seconds (the platform documents them), fractions too', () => {
    expect(readResetAt({ 'x-ratelimit-reset': String(nowSeconds + 30) }, NOW)).toBe(NOW + 30_000);
    expect(readResetAt({ 'x-ratelimit-reset': `${nowSeconds + 1}.25` }, NOW)).toBe(NOW + 1250);
  });

  it('reads a value below 10^9 as seconds until the reset', () => {
    expect(readResetAt({ 'x-ratelimit-reset': '60' }, NOW)).toBe(NOW + 60_000);
    expect(readResetAt({ 'x-ratelimit-reset': '0.5' }, NOW)).toBe(NOW + 500);
    expect(readResetAt({ 'x-ratelimit-reset': '999999999' }, NOW)).toBe(NOW + 999_999_999_000);
    expect(readResetAt({ 'x-ratelimit-reset': '1000000000' }, NOW)).toBe(1_000_000_000_000);
  });

  it('reads an HTTP-date', () => {
    expect(readResetAt({ 'x-ratelimit-reset': new Date(NOW + 5000).toUTCString() }, NOW)).toBe(NOW + 5000);
  });

  it('moves an epoch reset later when the local clock runs ahead of the server (by its Date header)', () => {
    const serverDate = new Date(NOW - 10_000).toUTCString(); // the server's clock says 10 s earlier
    expect(readResetAt({ 'x-ratelimit-reset': String(nowSeconds + 30), date: serverDate }, NOW)).toBe(
      NOW + 30_000 + 9000,
    );
    // Within Date's one-second resolution, or behind: no change; a relative reset never changes.
    expect(
      readResetAt({ 'x-ratelimit-reset': String(nowSeconds + 30), date: new Date(NOW - 900).toUTCString() }, NOW),
    ).toBe(NOW + 30_000);
    expect(
      readResetAt({ 'x-ratelimit-reset': String(nowSeconds + 30), date: new Date(NOW + 60_000).toUTCString() }, NOW),
    ).toBe(NOW + 30_000);
    expect(readResetAt({ 'x-ratelimit-reset': '30', date: serverDate }, NOW)).toBe(NOW + 30_000);
  });

  it.each([undefined, '', 'soon', '-5', '1e3'])('ignores %j', (value) => {
    expect(readResetAt({ 'x-ratelimit-reset': value }, NOW)).toBeUndefined();
  });
});

describe('readRateLimit', () => {
  const headers = {
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '12',
    'x-ratelimit-reset': String(nowSeconds + 40),
  };

  it('needs all three headers', () => {
    expect(readRateLimit(headers, NOW)).toEqual({ limit: 60, remaining: 12, resetAt: NOW + 40_000 });
    for (const name of Object.keys(headers)) {
      expect(readRateLimit({ ...headers, [name]: undefined }, NOW)).toBeUndefined();
    }
    expect(readRateLimit({ ...headers, 'x-ratelimit-limit': '0' }, NOW)).toBeUndefined();
    expect(readRateLimit({ ...headers, 'x-ratelimit-remaining': 'many' }, NOW)).toBeUndefined();
  });

  it('takes the first of a list and never more remaining than the limit', () => {
    expect(
      readRateLimit({ ...headers, 'x-ratelimit-limit': '60, 60;w=60', 'x-ratelimit-remaining': ['70', '1'] }, NOW),
    ).toEqual({
      limit: 60,
      remaining: 60,
      resetAt: NOW + 40_000,
    });
  });
});
