/**
 * A scripted HTTP server for client tests: each test decides how every request is answered and can
 * inspect exactly what the server received. Listens on 127.0.0.1, port 0 (or a given port).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  received: Received;
  /** 1-based arrival number. */
  index: number;
}

export type Handler = (x: Exchange) => void | Promise<void>;

export interface ScriptServer {
  /** Base URL ending in /v1. */
  url: string;
  port: number;
  received: Received[];
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function apiError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  json(res, status, { error: { code: status, message } }, headers);
}

/** Drop the connection with a TCP reset, without answering. */
export function resetConnection(req: IncomingMessage): void {
  (req.socket as Socket).resetAndDestroy();
}

export async function startScriptServer(
  handler: Handler = ({ res }) => json(res, 200, {}),
  port = 0,
): Promise<ScriptServer> {
  let current = handler;
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      void Promise.resolve(current({ req, res, received: r, index: received.length })).catch((err: unknown) => {
        res.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/v1`,
    port: actualPort,
    received,
    setHandler(h) {
      current = h;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port that was free a moment ago and has nothing listening on it now. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
