/**
 * The daemon's HTTP endpoints (node:http):
 *   GET  /healthz    200 while the process runs
 *   GET  /readyz     200 when the last manifest load and the last API contact succeeded, else 503 + reason
 *   GET  /metrics    Prometheus text
 *   POST /reconcile  Bearer <reconcileSecret>; 202 accepted, or with ?wait=1 the run's outcome.
 *                    404 when no secret is configured, 401 without the right secret.
 * Every answer passes through the process-wide secret registry (src/secrets.ts) on its way out. What goes into
 * the answers is the daemon's business (daemon.ts): categories, counts and positions, never file content.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import { redactText } from '../secrets.js';
import type { ListenAddress } from './config.js';

export interface Readiness {
  ready: boolean;
  /** Why not ready, and the state behind it; sent as the JSON body. */
  body: Record<string, unknown>;
}

export type ReconcileAnswer = { status: number; body: Record<string, unknown> };

export interface EndpointHandlers {
  readiness(): Readiness;
  metrics(): Promise<{ contentType: string; body: string }>;
  /** Start (or join) a reconcile; with `wait` resolve with the outcome, else as soon as it is accepted. */
  reconcile(wait: boolean): Promise<ReconcileAnswer>;
  /** POST /reconcile is disabled (404) without it. */
  reconcileSecret?: string;
  logger: Logger;
}

export interface DaemonServer {
  host: string;
  port: number;
  /** http://host:port */
  url: string;
  close(): Promise<void>;
}

export async function startDaemonServer(listen: ListenAddress, handlers: EndpointHandlers): Promise<DaemonServer> {
  const server = createServer((req, res) => {
    route(req, res, handlers).catch((err: unknown) => {
      handlers.logger.error({ err, path: req.url }, 'HTTP handler failed');
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.address;
  return {
    host,
    port: address.port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function route(req: IncomingMessage, res: ServerResponse, h: EndpointHandlers): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://daemon');
  const method = req.method ?? 'GET';
  const only = (allowed: string): boolean => {
    if (method === allowed || (allowed === 'GET' && method === 'HEAD')) return true;
    res.setHeader('allow', allowed === 'GET' ? 'GET, HEAD' : allowed);
    json(res, 405, { error: `use ${allowed}` });
    return false;
  };
  switch (url.pathname) {
    case '/healthz':
      if (only('GET')) json(res, 200, { status: 'ok' });
      return;
    case '/readyz': {
      if (!only('GET')) return;
      const r = h.readiness();
      json(res, r.ready ? 200 : 503, r.body);
      return;
    }
    case '/metrics': {
      if (!only('GET')) return;
      const m = await h.metrics();
      res.writeHead(200, { 'content-type': m.contentType });
      res.end(redactText(m.body));
      return;
    }
    case '/reconcile': {
      if (h.reconcileSecret === undefined) {
        json(res, 404, { error: 'POST /reconcile is disabled: no reconcileSecret is configured' });
        return;
      }
      if (!only('POST')) return;
      req.resume(); // the body is not used
      if (!bearerMatches(req.headers.authorization, h.reconcileSecret)) {
        res.setHeader('www-authenticate', 'Bearer');
        json(res, 401, { error: 'missing or wrong bearer secret' });
        return;
      }
      const wait = ['1', 'true', 'yes'].includes(url.searchParams.get('wait') ?? '');
      const answer = await h.reconcile(wait);
      json(res, answer.status, answer.body);
      return;
    }
    default:
      json(res, 404, { error: 'not found', endpoints: ['/healthz', '/readyz', '/metrics', 'POST /reconcile'] });
  }
}

/** Constant-time comparison (of digests, so lengths do not leak either). */
function bearerMatches(header: string | undefined, secret: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!.trim()), digest(secret));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(redactText(JSON.stringify(body)) + '\n');
}
