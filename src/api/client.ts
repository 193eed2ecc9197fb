/**
 * The HTTP client behind ApiClient: one keep-alive undici Pool for the API origin, bounded concurrency
 * (the Pool opens at most `concurrency` connections, one request each, and queues the rest), a
 * per-attempt timeout (connect, headers and body timeouts of the Pool), retries per src/api/retry.ts, and
 * pacing to the rate limit the API announces, shared with every client of the process (src/api/pacer.ts).
 * The wire is transport.ts (an attempt), the retries send.ts (a request); this file makes the client's views.
 */
import { setTimeout as sleepTimer } from 'node:timers/promises';
import type { HttpMethod } from '../model/plan.js';
import { paginatePages } from './paginate.js';
import { DEFAULT_RETRY } from './retry.js';
import type { RetryOptions } from './retry.js';
import { send, type SendContext } from './send.js';
import { DEFAULT_API_URL } from './settings.js';
import { createTransport } from './transport.js';
import type { ApiClient, ApiResponse, RequestOptions } from '../model/api-client.js';
import type { ClientOptions, ResponseInfo } from './client-options.js';

export type { ApiLogger, ClientOptions, ResponseInfo, RetryNotice } from './client-options.js';

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleepTimer(ms, undefined, signal === undefined ? undefined : { signal });

export function createClient(opts: ClientOptions = {}): ApiClient {
  const base = new URL(opts.baseUrl ?? DEFAULT_API_URL);
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseUrl = `${base.origin}${basePath}`;
  const token = opts.token;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...definedOnly(opts.retry ?? {}) };
  const logger = opts.logger;
  const transport = createTransport(opts, base.origin, baseUrl, token);

  /** A failing metrics hook must not turn a good answer into a failed request. */
  const report = (info: ResponseInfo): void => {
    try {
      opts.onResponse?.(info);
    } catch (err) {
      logger?.warn?.({ err: err instanceof Error ? err.message : String(err) }, 'onResponse hook failed');
    }
  };

  const ctx: SendContext = {
    basePath,
    token,
    retry,
    random: opts.random ?? Math.random,
    sleep: opts.sleep ?? defaultSleep,
    logger,
    onRetry: opts.onRetry,
    report,
    transport,
  };
  const views: Views = { baseUrl, ctx };
  return clientView(views, false);
}

/** The two views of one client (its own, and the background one made when first asked for), and what they share. */
interface Views {
  baseUrl: string;
  ctx: SendContext;
  background?: ApiClient;
}

/** The client's surface; `background`: every request of it yields to the others. */
function clientView(views: Views, background: boolean): ApiClient {
  const { baseUrl, ctx } = views;
  const { pacer } = ctx.transport;
  const request = <T = unknown>(
    method: HttpMethod,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> => send<T>(ctx, method, path, options, false, background);
  const get = async <T = unknown>(path: string, query?: RequestOptions['query']): Promise<T> =>
    (await request<T>('GET', path, query === undefined ? {} : { query })).body as T;
  /** A list's pages: every page after the first is urgent (it continues a chain already started). */
  const getPage = async (path: string, query: RequestOptions['query']): Promise<unknown> =>
    (await send(ctx, 'GET', path, query === undefined ? {} : { query }, query?.['page'] !== undefined, background))
      .body;
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
    background: () => (views.background ??= clientView(views, true)),
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
    close: background ? () => Promise.resolve() : () => ctx.transport.close(),
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
