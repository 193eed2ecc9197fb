/**
 * The HTTP client behind ApiClient: one keep-alive undici Pool for the API origin, bounded concurrency
 * (the Pool opens at most `concurrency` connections, one request each, and queues the rest), a
 * per-attempt timeout (connect, headers and body timeouts of the Pool), retries per src/api/retry.ts, and
 * pacing to the rate limit the API announces, shared with every client of the process (src/api/pacer.ts).
 */
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError, type RequestEffect } from '../model/errors.js';
import type { HttpMethod } from '../model/plan.js';
import { paginatePages } from './paginate.js';
import { sharedPacer, type Answer } from './pacer.js';
import { createPriorityGate } from './priority-gate.js';
import { readResetAt } from './rate-limit-headers.js';
import { requestTarget } from './request-target.js';
import {
  REDIRECT_REFUSED,
  errorMessageOf,
  flattenHeaders,
  hasNoBody,
  headerValue,
  isRedirect,
  networkMessage,
  parseJsonBody,
  redact,
  sanitizedCause,
} from './response.js';
import {
  DEFAULT_RETRY,
  attemptEffect,
  isRateLimit,
  isRetryable,
  networkErrorCode,
  nextDelay,
  worseEffect,
} from './retry.js';
import type { AttemptFailure, RetryOptions } from './retry.js';
import { DEFAULT_API_URL } from './settings.js';
import type { ApiClient, ApiResponse, RequestOptions } from '../model/api-client.js';
import type { ClientOptions, ResponseInfo } from './client-options.js';

export type { ApiLogger, ClientOptions, ResponseInfo, RetryNotice } from './client-options.js';

interface RawResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  text: string;
}

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleepTimer(ms, undefined, signal === undefined ? undefined : { signal });

export function createClient(opts: ClientOptions = {}): ApiClient {
  const base = new URL(opts.baseUrl ?? DEFAULT_API_URL);
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseUrl = `${base.origin}${basePath}`;
  const token = opts.token;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...definedOnly(opts.retry ?? {}) };
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? defaultSleep;
  const logger = opts.logger;
  const pool = new Pool(base.origin, {
    connections: Math.max(1, opts.concurrency ?? 8),
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs },
  });
  // Bounds attempts in flight in front of the Pool (whose own queue is FIFO) so later pages of a list go first.
  const gate = createPriorityGate(opts.concurrency ?? 8);
  const paced = opts.pacer !== undefined ? { pacer: opts.pacer, release: () => {} } : sharedPacer(baseUrl, token);
  const pacer = paced.pacer;
  const stopTelling = opts.onRateLimitWait ? pacer.onLongWait(opts.onRateLimitWait) : () => {};

  /** A failing metrics hook must not turn a good answer into a failed request. */
  const report = (info: ResponseInfo): void => {
    try {
      opts.onResponse?.(info);
    } catch (err) {
      logger?.warn?.({ err: err instanceof Error ? err.message : String(err) }, 'onResponse hook failed');
    }
  };

  const baseHeaders: Record<string, string> = { accept: 'application/json', 'user-agent': opts.userAgent ?? 'docops' };
  if (token !== undefined && token !== '') baseHeaders.authorization = `Bearer ${token}`;

  async function attemptOnce(
    method: HttpMethod,
    target: string,
    payload: string | undefined,
    signal: AbortSignal | undefined,
    urgent: boolean,
    background: boolean,
  ): Promise<RawResponse> {
    const headers = payload === undefined ? baseHeaders : { ...baseHeaders, 'content-type': 'application/json' };
    return gate.run(
      urgent,
      async () => {
        // Inside the gate: a paced request holds its slot, so urgent pages still go first once the budget allows.
        const pending = pacer.acquire(signal, background);
        const ticket = pending instanceof Promise ? await pending : pending;
        let answer: Answer | undefined;
        let res;
        try {
          res = await pool.request({ method, path: target, headers, body: payload, signal });
          answer = { status: res.statusCode, headers: res.headers };
        } finally {
          pacer.settle(ticket, answer);
        }
        if (hasNoBody(res.statusCode)) {
          await res.body.dump();
          return { status: res.statusCode, statusText: res.statusText, headers: res.headers, text: '' };
        }
        const text = await res.body.text();
        return { status: res.statusCode, statusText: res.statusText, headers: res.headers, text };
      },
      background,
    );
  }

  /**
   * `urgent`: a later page of a list being read (see priority-gate.ts); `background`: a request of the view
   * `background()` returns, which yields to every other (priority-gate.ts, pacer.ts).
   */
  async function send<T = unknown>(
    method: HttpMethod,
    path: string,
    options: RequestOptions,
    urgent: boolean,
    background = false,
  ): Promise<ApiResponse<T>> {
    const { route, target } = requestTarget(basePath, method, path, options.query);
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const signal = options.signal;
    // Over all attempts: the most the server may have done, and whether any attempt got an HTTP answer.
    let effect: RequestEffect = 'none';
    let answered = false;
    const fail = (
      status: number | undefined,
      message: string,
      attempts: number,
      cause?: unknown,
      unreachable = false,
    ): ApiError => {
      const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : '';
      return new ApiError(method, route, status, redact(message, token) + suffix, {
        ...(cause === undefined ? {} : { cause }),
        effect,
        unreachable,
      });
    };
    // A request marked non-idempotent is retried by the POST rules whatever its method; one marked idempotent, like a PUT.
    const retryAs = options.idempotent === false ? 'POST' : options.idempotent === true ? 'PUT' : method;
    const spent = { rateLimit: 0, other: 0 };

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let failure: AttemptFailure;
      let lastError: ApiError;
      try {
        const raw = await attemptOnce(method, target, payload, signal, urgent, background);
        answered = true;
        report({ method, route, status: raw.status, durationMs: performance.now() - started, attempt });
        const parsed = parseJsonBody(raw.text);
        if (raw.status >= 200 && raw.status < 300) {
          if (!parsed.ok) {
            effect = worseEffect(effect, 'maybe'); // processed, but its answer cannot be read
            throw fail(raw.status, 'response body is not valid JSON', attempt);
          }
          return { status: raw.status, body: parsed.value as T | undefined, headers: flattenHeaders(raw.headers) };
        }
        const body = parsed.ok ? parsed.value : undefined;
        failure = {
          kind: 'status',
          status: raw.status,
          retryAfter: headerValue(raw.headers['retry-after']),
          ...(raw.status === 429 ? { rateLimitResetMs: resetInMs(raw.headers) } : {}),
        };
        effect = worseEffect(effect, attemptEffect(failure));
        lastError = fail(
          raw.status,
          isRedirect(raw.status) ? REDIRECT_REFUSED : errorMessageOf(raw.status, body, raw.statusText),
          attempt,
        );
      } catch (err) {
        if (err instanceof ApiError) throw err;
        report({ method, route, status: undefined, durationMs: performance.now() - started, attempt });
        if (signal?.aborted === true) {
          effect = worseEffect(effect, attemptEffect({ kind: 'aborted' }));
          throw fail(undefined, 'request aborted', attempt, err);
        }
        const code = networkErrorCode(err);
        failure = { kind: 'network', code };
        effect = worseEffect(effect, attemptEffect(failure));
        // Unreachable: never an HTTP answer, and only the budget (not the retry rules) ends the retries.
        const exhausted = !answered && isRetryable(retryAs, failure);
        lastError = fail(undefined, networkMessage(err, code), attempt, sanitizedCause(err, code, token), exhausted);
      }

      const bucket = isRateLimit(failure) ? 'rateLimit' : 'other';
      const delayMs = nextDelay(retryAs, failure, spent[bucket], retry, random, Date.now());
      if (delayMs === undefined) throw lastError;
      spent[bucket]++;
      opts.onRetry?.({
        method,
        path: route,
        attempt: spent[bucket] + 1,
        maxAttempts: (bucket === 'rateLimit' ? retry.maxRateLimitRetries : retry.maxRetries) + 1,
        delayMs,
        reason: failure.kind === 'status' ? String(failure.status) : (failure.code ?? 'network error'),
      });
      logger?.debug?.(
        {
          method,
          path: route,
          attempt,
          status: failure.kind === 'status' ? failure.status : undefined,
          code: failure.kind === 'network' ? failure.code : undefined,
          delayMs,
        },
        `retrying ${method} ${route} in ${delayMs}ms`,
      );
      try {
        await sleep(delayMs, signal);
      } catch (err) {
        throw fail(undefined, 'request aborted', attempt, err);
      }
    }
  }

  /** The client's surface; `background`: every request of it yields to the others. */
  function view(background: boolean): ApiClient {
    const request = <T = unknown>(
      method: HttpMethod,
      path: string,
      options: RequestOptions = {},
    ): Promise<ApiResponse<T>> => send<T>(method, path, options, false, background);
    const get = async <T = unknown>(path: string, query?: RequestOptions['query']): Promise<T> =>
      (await request<T>('GET', path, query === undefined ? {} : { query })).body as T;
    /** A list's pages: every page after the first is urgent (it continues a chain already started). */
    const getPage = async (path: string, query: RequestOptions['query']): Promise<unknown> =>
      (await send('GET', path, query === undefined ? {} : { query }, query?.['page'] !== undefined, background)).body;
    const paginate = <T = unknown>(path: string, query?: RequestOptions['query']): AsyncIterable<T> =>
      paginatePages<T>(getPage, path, query);
    const listAll = async <T = unknown>(path: string, query?: RequestOptions['query']): Promise<T[]> => {
      const items: T[] = [];
      for await (const item of paginate<T>(path, query)) items.push(item);
      return items;
    };
    return {
      baseUrl,
      request,
      get,
      paginate,
      listAll,
      background: () => (backgroundView ??= view(true)),
      rateLimit: () => {
        const b = pacer.state().budget;
        return b === undefined
          ? undefined
          : {
              limit: b.limit,
              remaining: b.remaining,
              ...(b.resetAt !== undefined ? { resetInMs: Math.max(0, b.resetAt - Date.now()) } : {}),
            };
      },
      // The background view shares the pool: closing it closes nothing.
      close: background
        ? () => Promise.resolve()
        : () => {
            stopTelling();
            paced.release();
            return pool.close();
          },
    };
  }

  let backgroundView: ApiClient | undefined;
  return view(false);
}

/** How long until the announced X-RateLimit-Reset (a 429's wait when it has no Retry-After). */
function resetInMs(headers: IncomingHttpHeaders): number | undefined {
  const now = Date.now();
  const at = readResetAt(headers, now);
  return at === undefined ? undefined : Math.max(0, Math.ceil(at - now));
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
