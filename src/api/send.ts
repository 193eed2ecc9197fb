/**
 * One request of the client (client.ts), to its end: attempts on the transport, each answer read, each failure
 * weighed by the retry rules (retry.ts), and the waits between attempts told and logged.
 */
import { ApiError, type RequestEffect } from '../model/errors.js';
import type { HttpMethod } from '../model/plan.js';
import type { ApiResponse, RequestOptions } from '../model/api-client.js';
import { readResetAt } from './rate-limit-headers.js';
import { requestTarget } from './request-target.js';
import {
  REDIRECT_REFUSED,
  errorMessageOf,
  flattenHeaders,
  headerValue,
  isRedirect,
  networkMessage,
  parseJsonBody,
  redact,
  sanitizedCause,
} from './response.js';
import { attemptEffect, isRateLimit, isRetryable, networkErrorCode, nextDelay, worseEffect } from './retry.js';
import type { AttemptFailure, RetryOptions } from './retry.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiLogger, ClientOptions, ResponseInfo } from './client-options.js';
import type { RawResponse, Transport } from './transport.js';

/** What every request of one client shares. */
export interface SendContext {
  basePath: string;
  token: string | undefined;
  retry: RetryOptions;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger: ApiLogger | undefined;
  onRetry: ClientOptions['onRetry'];
  /** Tells each attempt's answer (or its absence) to the metrics hook. */
  report: (info: ResponseInfo) => void;
  transport: Transport;
}

/** One request as sent: its route (for messages), its target (path and query) and how it is retried. */
interface Sent {
  method: HttpMethod;
  route: string;
  target: string;
  payload: string | undefined;
  signal: AbortSignal | undefined;
  urgent: boolean;
  background: boolean;
  /** The method whose retry rules apply (a request marked (non-)idempotent is retried as a PUT (POST)). */
  retryAs: HttpMethod;
}

/** Over all attempts of a request: the most the server may have done, and whether any attempt got an HTTP answer. */
interface Progress {
  effect: RequestEffect;
  answered: boolean;
}

type Fail = (
  status: number | undefined,
  message: string,
  attempts: number,
  cause?: unknown,
  unreachable?: boolean,
) => ApiError;

/** An attempt's end: the answer, or the failure the retry rules weigh and the error thrown if none follows. */
type AttemptEnd<T> = { response: ApiResponse<T> } | { failure: AttemptFailure; error: ApiError };

/**
 * `urgent`: a later page of a list being read (see priority-gate.ts); `background`: a request of the view
 * `background()` returns, which yields to every other (priority-gate.ts, pacer.ts).
 */
export async function send<T = unknown>(
  ctx: SendContext,
  method: HttpMethod,
  path: string,
  options: RequestOptions,
  urgent: boolean,
  background = false,
): Promise<ApiResponse<T>> {
  const { route, target } = requestTarget(ctx.basePath, method, path, options.query);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const signal = options.signal;
  const progress: Progress = { effect: 'none', answered: false };
  const fail = failOf(ctx.token, method, route, progress);
  // A request marked non-idempotent is retried by the POST rules whatever its method; one marked idempotent, like a PUT.
  const retryAs = options.idempotent === false ? 'POST' : options.idempotent === true ? 'PUT' : method;
  const sent: Sent = { method, route, target, payload, signal, urgent, background, retryAs };
  const spent = { rateLimit: 0, other: 0 };

  for (let attempt = 1; ; attempt++) {
    const end = await attemptOnce<T>(ctx, sent, attempt, progress, fail);
    if ('response' in end) return end.response;
    const { failure } = end;
    const bucket = isRateLimit(failure) ? 'rateLimit' : 'other';
    const delayMs = nextDelay(retryAs, failure, spent[bucket], ctx.retry, ctx.random, Date.now());
    if (delayMs === undefined) throw end.error;
    spent[bucket]++;
    const maxAttempts = (bucket === 'rateLimit' ? ctx.retry.maxRateLimitRetries : ctx.retry.maxRetries) + 1;
    tellRetry(ctx, sent, failure, { attempt, next: spent[bucket] + 1, maxAttempts, delayMs });
    try {
      await ctx.sleep(delayMs, signal);
    } catch (err) {
      throw fail(undefined, 'request aborted', attempt, err);
    }
  }
}

/** The error of a request that failed, its message redacted and its effect the worst of its attempts so far. */
function failOf(token: string | undefined, method: HttpMethod, route: string, progress: Progress): Fail {
  return (status, message, attempts, cause, unreachable = false) => {
    const suffix = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    return new ApiError(method, route, status, redact(message, token) + suffix, {
      ...(cause === undefined ? {} : { cause }),
      effect: progress.effect,
      unreachable,
    });
  };
}

/** One attempt: its answer read, or why it failed (an answer that cannot be read, or an abort, throws). */
async function attemptOnce<T>(
  ctx: SendContext,
  sent: Sent,
  attempt: number,
  progress: Progress,
  fail: Fail,
): Promise<AttemptEnd<T>> {
  const { method, route } = sent;
  const started = performance.now();
  try {
    const raw = await ctx.transport.attempt(sent);
    progress.answered = true;
    ctx.report({ method, route, status: raw.status, durationMs: performance.now() - started, attempt });
    return readAnswer<T>(raw, attempt, progress, fail);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    ctx.report({ method, route, status: undefined, durationMs: performance.now() - started, attempt });
    return noAnswer(err, sent, ctx.token, attempt, progress, fail);
  }
}

/** An HTTP answer: a success whose body is read, or a failed status. */
function readAnswer<T>(raw: RawResponse, attempt: number, progress: Progress, fail: Fail): AttemptEnd<T> {
  const parsed = parseJsonBody(raw.text);
  if (raw.status >= 200 && raw.status < 300) {
    if (!parsed.ok) {
      progress.effect = worseEffect(progress.effect, 'maybe'); // processed, but its answer cannot be read
      throw fail(raw.status, 'response body is not valid JSON', attempt);
    }
    return {
      response: { status: raw.status, body: parsed.value as T | undefined, headers: flattenHeaders(raw.headers) },
    };
  }
  const body = parsed.ok ? parsed.value : undefined;
  const failure: AttemptFailure = {
    kind: 'status',
    status: raw.status,
    retryAfter: headerValue(raw.headers['retry-after']),
    ...(raw.status === 429 ? { rateLimitResetMs: resetInMs(raw.headers) } : {}),
  };
  progress.effect = worseEffect(progress.effect, attemptEffect(failure));
  const message = isRedirect(raw.status) ? REDIRECT_REFUSED : errorMessageOf(raw.status, body, raw.statusText);
  return { failure, error: fail(raw.status, message, attempt) };
}

/** No HTTP answer: the request was aborted (thrown), or the network failed it. */
function noAnswer<T>(
  err: unknown,
  sent: Sent,
  token: string | undefined,
  attempt: number,
  progress: Progress,
  fail: Fail,
): AttemptEnd<T> {
  if (sent.signal?.aborted === true) {
    progress.effect = worseEffect(progress.effect, attemptEffect({ kind: 'aborted' }));
    throw fail(undefined, 'request aborted', attempt, err);
  }
  const code = networkErrorCode(err);
  const failure: AttemptFailure = { kind: 'network', code };
  progress.effect = worseEffect(progress.effect, attemptEffect(failure));
  // Unreachable: never an HTTP answer, and only the budget (not the retry rules) ends the retries.
  const exhausted = !progress.answered && isRetryable(sent.retryAs, failure);
  return {
    failure,
    error: fail(undefined, networkMessage(err, code), attempt, sanitizedCause(err, code, token), exhausted),
  };
}

/** A retry about to happen: told to the client's hook (the CLI says it) and logged at debug level. */
function tellRetry(
  ctx: SendContext,
  sent: Sent,
  failure: AttemptFailure,
  at: { attempt: number; next: number; maxAttempts: number; delayMs: number },
): void {
  const { method, route } = sent;
  const { delayMs } = at;
  ctx.onRetry?.({
    method,
    path: route,
    attempt: at.next,
    maxAttempts: at.maxAttempts,
    delayMs,
    reason: failure.kind === 'status' ? String(failure.status) : (failure.code ?? 'network error'),
  });
  ctx.logger?.debug?.(
    {
      method,
      path: route,
      attempt: at.attempt,
      status: failure.kind === 'status' ? failure.status : undefined,
      code: failure.kind === 'network' ? failure.code : undefined,
      delayMs,
    },
    `retrying ${method} ${route} in ${delayMs}ms`,
  );
}

/** How long until the announced X-RateLimit-Reset (a 429's wait when it has no Retry-After). */
function resetInMs(headers: IncomingHttpHeaders): number | undefined {
  const now = Date.now();
  const at = readResetAt(headers, now);
  return at === undefined ? undefined : Math.max(0, Math.ceil(at - now));
}
