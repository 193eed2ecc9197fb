/**
 * The daemon's HTTP endpoints (node:http):
 *   GET  /healthz    200 while the process runs
 *   GET  /readyz     200 when the last manifest load and the last API contact succeeded, else 503 + reason;
 *                    with organizations: 200 while every one is ready, `?org=ID` for one (404: not here)
 *   GET  /metrics    Prometheus text
 *   POST /reconcile  Bearer <reconcileSecret>; 202 accepted, or with ?wait=1 the run's outcome; ?full=1 reads
 *                    the whole organization (the informer's full read on demand).
 *                    404 when no secret is configured, 401 without the right secret.
 *   POST /approve    Bearer <approver token>; {"checksum": "sha256:…"} approves the plan that waits for approval
 *                    (src/policy): 202, or 409 when no plan with that checksum waits. 404 without an approver token.
 *   GET  /              the status page (HTML; src/daemon/status), read-only
 *   GET  /api/status    the same data as JSON
 *   GET  /api/runs/{n}  one run (n an integer; 404 when unknown)
 *   With organizations (src/daemon/fleet): POST /reconcile?org=ID reconciles one of them (all without it), and
 *   GET /orgs/{id}/, /api/orgs/{id}/status, /api/orgs/{id}/runs/{n} are one organization's page, JSON and runs.
 * Every answer passes through the process-wide secret registry (src/secrets.ts) on its way out. What goes into
 * the answers is the daemon's business (daemon.ts): categories, counts and positions, never file content.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../log.js';
import { redactText } from '../secrets.js';
import type { ListenAddress } from '../config/checks.js';

export interface Readiness {
  ready: boolean;
  /** Why not ready, and the state behind it; sent as the JSON body. */
  body: Record<string, unknown>;
}

export type ReconcileAnswer = { status: number; body: Record<string, unknown> };

const NO_SUCH_ORG =
  'no such organization in this daemon (?org= names one of the organizations: of its config, and only of its share)';

export interface EndpointHandlers {
  /** The whole daemon's readiness, or one organization's (`?org=ID`; undefined: no such organization here). */
  readiness(org?: string): Readiness | undefined;
  metrics(): Promise<{ contentType: string; body: string }>;
  /** Start (or join) a reconcile; with `wait` resolve with the outcome, else as soon as it is accepted. `full`: read everything. */
  reconcile(wait: boolean, full?: boolean, org?: string): Promise<ReconcileAnswer>;
  /** POST /reconcile is disabled (404) without it. */
  reconcileSecret?: string;
  /** The status page and its JSON (404 without it: `statusPage: false`). */
  status?: StatusHandlers;
  /** A fleet's organizations, each with its own status page (undefined: no such organization here). */
  orgs?: (id: string) => StatusHandlers | undefined;
  /** POST /approve (src/policy/daemon-approvals.ts): disabled (404) without it. */
  approve?: { token: string; handle(body: unknown): Promise<ReconcileAnswer> };
  logger: Logger;
}

export interface StatusHandlers {
  html(): Promise<string>;
  json(): Promise<unknown>;
  /** One run; undefined when unknown. */
  run(id: number): unknown;
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

/** What an endpoint gets: the request, its answer, its URL, the handlers, and `only` (false: 405 answered). */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  h: EndpointHandlers;
  only(allowed: string): boolean;
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
  const x: Exchange = { req, res, url, h, only };
  const endpoint = ENDPOINTS.get(url.pathname);
  if (endpoint && (await endpoint(x)) !== false) return;
  if (await orgPages(x)) return;
  const run = /^\/api\/runs\/([^/]*)$/.exec(url.pathname);
  if (run && h.status) {
    if (!only('GET')) return;
    runAnswer(res, h.status, run[1]!);
    return;
  }
  json(res, 404, {
    error: 'not found',
    endpoints: [
      '/healthz',
      '/readyz',
      '/metrics',
      'POST /reconcile',
      ...(h.approve ? ['POST /approve'] : []),
      ...(h.status ? ['/', '/api/status', '/api/runs/{n}'] : []),
      ...(h.orgs && h.status ? ['/orgs/{id}/', '/api/orgs/{id}/status', '/api/orgs/{id}/runs/{n}'] : []),
    ],
  });
}

/** The endpoints of fixed paths; one that answers `false` leaves the path to the others (the status page when off). */
const ENDPOINTS = new Map<string, (x: Exchange) => Promise<boolean | void> | boolean | void>([
  ['/healthz', healthz],
  ['/readyz', readyz],
  ['/metrics', metrics],
  ['/reconcile', reconcile],
  ['/approve', approve],
  ['/', statusPage],
  ['/api/status', statusPage],
]);

function healthz({ res, only }: Exchange): void {
  if (only('GET')) json(res, 200, { status: 'ok' });
}

function readyz({ res, url, h, only }: Exchange): void {
  if (!only('GET')) return;
  const r = h.readiness(url.searchParams.get('org') ?? undefined);
  if (r === undefined) json(res, 404, { error: NO_SUCH_ORG });
  else json(res, r.ready ? 200 : 503, r.body);
}

async function metrics({ res, h, only }: Exchange): Promise<void> {
  if (!only('GET')) return;
  const m = await h.metrics();
  res.writeHead(200, { 'content-type': m.contentType });
  res.end(redactText(m.body));
}

async function reconcile(x: Exchange): Promise<void> {
  const { req, res, url, h } = x;
  const disabled = 'POST /reconcile is disabled: no reconcileSecret is configured';
  if (!authorized(x, h.reconcileSecret, disabled, 'missing or wrong bearer secret')) return;
  req.resume(); // the body is not used
  const flag = (name: string): boolean => ['1', 'true', 'yes'].includes(url.searchParams.get(name) ?? '');
  const org = url.searchParams.get('org');
  const answer = await h.reconcile(flag('wait'), flag('full'), org ?? undefined);
  json(res, answer.status, answer.body);
}

async function approve(x: Exchange): Promise<void> {
  const { req, res, h } = x;
  const disabled = 'POST /approve is disabled: no policy with an approver token is configured';
  if (!authorized(x, h.approve?.token, disabled, 'missing or wrong approver token')) return;
  const body = await readJson(req);
  if (body === undefined) {
    json(res, 400, { error: `expected a JSON body of at most ${MAX_BODY} bytes` });
    return;
  }
  const answer = await h.approve!.handle(body);
  json(res, answer.status, answer.body);
}

/**
 * A POST bearing `secret`: 404 (`disabled`) without one, 405 for another method, 401 (`wrong`) without the right
 * bearer, its body left unread. False when one of those was answered.
 */
function authorized(
  { req, res, only }: Exchange,
  secret: string | undefined,
  disabled: string,
  wrong: string,
): boolean {
  if (secret === undefined) {
    json(res, 404, { error: disabled });
    return false;
  }
  if (!only('POST')) return false;
  if (bearerMatches(req.headers.authorization, secret)) return true;
  req.resume();
  res.setHeader('www-authenticate', 'Bearer');
  json(res, 401, { error: wrong });
  return false;
}

async function statusPage({ res, url, h, only }: Exchange): Promise<boolean> {
  if (!h.status) return false;
  if (!only('GET')) return true;
  if (url.pathname === '/api/status') json(res, 200, await h.status.json());
  else html(res, await h.status.html());
  return true;
}

/** A fleet's organization's page, JSON and runs (`/orgs/{id}/…`, `/api/orgs/{id}/…`); false when the path is none of them. */
async function orgPages({ res, url, h, only }: Exchange): Promise<boolean> {
  const orgPath = h.orgs && h.status ? /^\/(?:api\/)?orgs\/([^/]+)(\/.*)?$/.exec(url.pathname) : null;
  if (!orgPath) return false;
  const pages = h.orgs!(decodeURIComponent(orgPath[1]!));
  if (!pages) {
    json(res, 404, { error: 'no such organization in this daemon' });
    return true;
  }
  const api = url.pathname.startsWith('/api/');
  const rest = orgPath[2] ?? '';
  if (!only('GET')) return true;
  if (!api && (rest === '/' || rest === '')) return (html(res, await pages.html()), true);
  if (api && rest === '/status') return (json(res, 200, await pages.json()), true);
  const r = api ? /^\/runs\/([^/]*)$/.exec(rest) : null;
  if (r) return (runAnswer(res, pages, r[1]!), true);
  return false;
}

function runAnswer(res: ServerResponse, status: StatusHandlers, n: string): void {
  const id = /^[1-9]\d{0,9}$/.test(n) ? Number(n) : undefined;
  const found = id !== undefined ? status.run(id) : undefined;
  if (found === undefined)
    json(res, 404, { error: 'no such run (runs are numbered from 1; only the last ones are kept)' });
  else json(res, 200, found);
}

const MAX_BODY = 4096;

/** A small JSON body, or undefined when it is too large or not JSON. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Constant-time comparison (of digests, so lengths do not leak either). */
function bearerMatches(header: string | undefined, secret: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!.trim()), digest(secret));
}

/** The status page: no script or outside resource may load (it has none), never framed, never cached. */
function html(res: ServerResponse, text: string): void {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  res.end(redactText(text));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(redactText(JSON.stringify(body)) + '\n');
}
