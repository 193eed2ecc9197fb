/**
 * The API client surface the rest of docops codes against (implemented in src/api/client.ts).
 * Everything that talks to the API goes through this; the one write path is `request` with a
 * non-GET method, called only from src/engine/apply.ts.
 */
import type { HttpMethod } from './plan.js';

export interface ListEnvelope<T> {
  next?: { page: string };
  count: number;
  items: T[];
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * false: the request may create something even though its method is PUT (e.g. `PUT /orgs/{id}/teams`), so
   * it is retried only like a POST — never once the server may have received it. true: sending it again leaves
   * what sending it once leaves (a POST that moves something), so it is retried like a PUT. Default: by method.
   */
  idempotent?: boolean;
  /** The ids an answer names are objects of a list from now on (RequestSpec.joins; src/api/expectations.ts). */
  joins?: { list: string; ids: string };
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T | undefined;
  headers: Record<string, string>;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** One HTTP call with retries per the retry policy. Throws ApiError on a final failure. */
  request<T = unknown>(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** GET and return the body. */
  get<T = unknown>(path: string, query?: RequestOptions['query']): Promise<T>;
  /** Every item of a paginated list, page by page (limit=1000). A failed page throws: never a short list. */
  paginate<T = unknown>(path: string, query?: RequestOptions['query']): AsyncIterable<T>;
  /** All items of a paginated list. */
  listAll<T = unknown>(path: string, query?: RequestOptions['query']): Promise<T[]>;
  /**
   * The same client for work that yields to everything else (the informer's background resync): its requests wait
   * behind every other request for a connection and for the rate-limit budget, and leave part of the budget to
   * them (src/api/priority-gate.ts, pacer.ts).
   */
  background?(): ApiClient;
  /**
   * How long after a write a list may still not show it (ms; src/api/expectations.ts): apply waits that long before
   * it takes "not listed" to mean a create did not happen. Absent: lists are current.
   */
  listLag?(): number;
  /**
   * Someone else changed the object with this id (an audit event): what docops wrote of it no longer stands in for
   * what the lists show (src/api/expectations.ts).
   */
  superseded?(id: string): void;
  /** The rate limit the API announced on its latest answer, if any (the plan's cost estimate paces to it). */
  rateLimit?(): { limit: number; remaining: number; resetInMs?: number } | undefined;
  close(): Promise<void>;
}
