import { describe, expect, it } from 'vitest';
import {
  attemptEffect,
  backoffDelay,
  DEFAULT_RETRY,
  isRetryable,
  networkErrorCode,
  nextDelay,
  parseRetryAfter,
  worseEffect,
} from '../../src/api/retry.js';
import type { AttemptFailure } from '../../src/api/retry.js';

const net = (code: string): AttemptFailure => ({ kind: 'network', code });
const status = (s: number, retryAfter?: string): AttemptFailure => ({ kind: 'status', status: s, retryAfter });

describe('isRetryable', () => {
  it('retries idempotent methods on 429/502/503/504 and transport errors', () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      for (const s of [429, 502, 503, 504]) expect(isRetryable(method, status(s))).toBe(true);
      for (const code of [
        'ECONNRESET',
        'UND_ERR_SOCKET',
        'UND_ERR_HEADERS_TIMEOUT',
        'UND_ERR_BODY_TIMEOUT',
        'ECONNREFUSED',
        'UND_ERR_CONNECT_TIMEOUT',
      ])
        expect(isRetryable(method, net(code))).toBe(true);
      for (const s of [400, 401, 403, 404, 409, 412, 500]) expect(isRetryable(method, status(s))).toBe(false);
    }
  });

  it('retries POST only when it provably never reached the server, or on 429', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'])
      expect(isRetryable('POST', net(code))).toBe(true);
    for (const code of [
      'ECONNRESET',
      'EPIPE',
      'UND_ERR_SOCKET',
      'UND_ERR_HEADERS_TIMEOUT',
      'UND_ERR_BODY_TIMEOUT',
      'ETIMEDOUT',
    ])
      expect(isRetryable('POST', net(code))).toBe(false);
    expect(isRetryable('POST', status(429))).toBe(true);
    for (const s of [500, 502, 503, 504]) expect(isRetryable('POST', status(s))).toBe(false);
  });

  it('does not retry unknown transport errors', () => {
    expect(isRetryable('GET', { kind: 'network', code: undefined })).toBe(false);
    expect(isRetryable('GET', net('UND_ERR_INVALID_ARG'))).toBe(false);
  });
});

describe('delays', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('parses Retry-After as seconds or an HTTP-date', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 12 ', now)).toBe(12_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('full jitter: uniform below an exponentially growing, capped ceiling', () => {
    const opts = { ...DEFAULT_RETRY, minDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, opts, () => 0.999999))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(3, opts, () => 0)).toBe(0);
  });

  it('nextDelay: Retry-After wins (capped), the budget ends retries, non-retryable is final', () => {
    const opts = { maxRetries: 2, maxRateLimitRetries: 4, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
    const half = (): number => 0.5;
    expect(nextDelay('GET', status(429, '3'), 0, opts, half, now)).toBe(3000);
    expect(nextDelay('GET', status(429, '60'), 0, opts, half, now)).toBe(5000);
    expect(nextDelay('GET', status(503), 1, opts, half, now)).toBe(100);
    expect(nextDelay('GET', status(503), 2, opts, half, now)).toBeUndefined();
    expect(nextDelay('POST', status(503), 0, opts, half, now)).toBeUndefined();
    expect(nextDelay('GET', status(404), 0, opts, half, now)).toBeUndefined();
  });

  it('429s have their own budget (maxRateLimitRetries), apart from every other failure', () => {
    const opts = { maxRetries: 2, maxRateLimitRetries: 4, minDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
    const half = (): number => 0.5;
    expect(nextDelay('GET', status(429, '0'), 3, opts, half, now)).toBe(0);
    expect(nextDelay('POST', status(429, '0'), 3, opts, half, now)).toBe(0);
    expect(nextDelay('GET', status(429, '0'), 4, opts, half, now)).toBeUndefined();
    expect(nextDelay('GET', status(503), 2, opts, half, now)).toBeUndefined();
    expect(DEFAULT_RETRY).toMatchObject({ maxRetries: 5, maxRateLimitRetries: 10 });
  });
});

describe('what a failed attempt may have done on the server', () => {
  it('nothing when never connected or refused with a 4xx; maybe after a 5xx or a broken connection; pending after a timeout', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'])
      expect(attemptEffect(net(code))).toBe('none');
    for (const s of [400, 404, 409, 429]) expect(attemptEffect(status(s))).toBe('none');
    for (const s of [500, 502, 503, 504]) expect(attemptEffect(status(s))).toBe('maybe');
    for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED'])
      expect(attemptEffect(net(code))).toBe('maybe');
    expect(attemptEffect({ kind: 'network', code: undefined })).toBe('maybe');
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'])
      expect(attemptEffect(net(code))).toBe('pending');
    expect(attemptEffect({ kind: 'aborted' })).toBe('pending');
  });

  it('over several attempts the most uncertain effect wins', () => {
    expect(worseEffect('none', 'maybe')).toBe('maybe');
    expect(worseEffect('maybe', 'none')).toBe('maybe');
    expect(worseEffect('maybe', 'pending')).toBe('pending');
    expect(worseEffect('pending', 'none')).toBe('pending');
  });

  it('finds the error code on the error, its cause, or the first of an AggregateError', () => {
    expect(networkErrorCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    expect(networkErrorCode(new Error('x', { cause: Object.assign(new Error('y'), { code: 'ENOTFOUND' }) }))).toBe(
      'ENOTFOUND',
    );
    expect(networkErrorCode(new AggregateError([Object.assign(new Error('z'), { code: 'ECONNREFUSED' })]))).toBe(
      'ECONNREFUSED',
    );
    expect(networkErrorCode('nope')).toBeUndefined();
  });
});
