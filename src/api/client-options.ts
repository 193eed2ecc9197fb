/** What an API client (client.ts) is made with, and what it tells as it goes: each answer, each retry. */
import type { PacerWait, Pacer } from './pacer.js';
import type { RetryOptions } from './retry.js';
import type { HttpMethod } from '../model/plan.js';

type LogFn = (obj: Record<string, unknown>, msg: string) => void;

/** A pino-compatible logger subset. */
export interface ApiLogger {
  debug?: LogFn;
  info?: LogFn;
  warn?: LogFn;
}

/** Reported once per attempt (for metrics). `status` is undefined when no response arrived. */
export interface ResponseInfo {
  method: HttpMethod;
  route: string;
  status: number | undefined;
  durationMs: number;
  attempt: number;
}

export interface ClientOptions {
  /** Ends in /v1. Default https://api.gitbook.com/v1. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …` when set. Never logged. */
  token?: string | undefined;
  /** Most requests in flight at once; the rest wait in the Pool's queue. Default 8. */
  concurrency?: number;
  /** Per attempt: connect, response-headers and between-body-chunks timeout. Default 30000. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  logger?: ApiLogger;
  onResponse?: (info: ResponseInfo) => void;
  /**
   * Told before each wait for a retry (the CLI shows it on stderr: a one-shot command is otherwise silent while
   * it retries; the daemon leaves it unset and logs the retries at debug level only).
   */
  onRetry?: (info: RetryNotice) => void;
  /** Told when requests wait 3 s or more for the rate-limit budget (the CLI says so on stderr), once per wait. */
  onRateLimitWait?: (wait: PacerWait) => void;
  /** [0, 1) source for backoff jitter (tests inject a fixed one). */
  random?: () => number;
  /** Waits between attempts (tests inject one to observe delays without real waiting). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  userAgent?: string;
  /**
   * Paces requests to the announced rate limit. Default: the one pacer of this process for this base URL and
   * token (tests inject their own, e.g. to stand for another process, or with a fake clock).
   */
  pacer?: Pacer;
}

/** One retry about to happen: attempt `attempt` of at most `maxAttempts`, after `delayMs`, because of `reason`. */
export interface RetryNotice {
  method: string;
  path: string;
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** The HTTP status (`503`) or the transport error code (`ECONNREFUSED`). */
  reason: string;
}
