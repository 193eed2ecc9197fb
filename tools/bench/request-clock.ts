/**
 * When the sandbox saw the first /v1 request begin and the last /v1 response finish, read on the sandbox's
 * side through Node's HTTP server diagnostics channels (no change to the sandbox, nothing from docops's own
 * view). Times are epoch milliseconds with sub-millisecond precision (`performance.timeOrigin + now()`), so
 * another process on the same machine can set them against its own clock.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

export interface RequestTiming {
  /** /v1 requests whose response finished since the last reset. */
  responses: number;
  /** Epoch ms when the first /v1 request reached the server (undefined: none yet). */
  firstRequestAt?: number;
  /** Epoch ms when the last /v1 response was finished. */
  lastResponseAt?: number;
  /** Epoch ms when the first /v1 request that is not a GET (a write) reached the server. */
  firstWriteAt?: number;
}

export const epochNow = (): number => performance.timeOrigin + performance.now();

export interface RequestClock {
  timing(): RequestTiming;
  reset(): void;
  close(): void;
}

/**
 * Watch the server listening on `port` (this process's HTTP servers only). Requests carrying `ignore` as their
 * Authorization (a benchmark's second actor) are not docops's: not counted.
 */
export function watchRequests(port: number, ignore?: string): RequestClock {
  let timing: RequestTiming = { responses: 0 };
  const ours = (req: IncomingMessage): boolean =>
    req.socket.localPort === port &&
    (req.url ?? '').startsWith('/v1') &&
    (ignore === undefined || req.headers.authorization !== ignore);
  const onStart = (message: unknown): void => {
    const { request } = message as { request: IncomingMessage };
    if (!ours(request)) return;
    if (timing.firstRequestAt === undefined) timing.firstRequestAt = epochNow();
    if (timing.firstWriteAt === undefined && request.method !== 'GET' && request.method !== 'HEAD')
      timing.firstWriteAt = epochNow();
  };
  const onFinish = (message: unknown): void => {
    const { request } = message as { request: IncomingMessage };
    if (!ours(request)) return;
    timing.responses++;
    timing.lastResponseAt = epochNow();
  };
  subscribe('http.server.request.start', onStart);
  subscribe('http.server.response.finish', onFinish);
  return {
    timing: () => ({ ...timing }),
    reset: () => void (timing = { responses: 0 }),
    close: () => {
      unsubscribe('http.server.request.start', onStart);
      unsubscribe('http.server.response.finish', onFinish);
    },
  };
}
