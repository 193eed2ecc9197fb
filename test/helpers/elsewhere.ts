/**
 * "Another origin" for redirect tests: a server on 127.0.0.1 on its own ephemeral port (so a different origin
 * from any other test server) that records every request it gets and answers 200 with `answer` (JSON). A client
 * that follows a redirect there, or sends anything there, shows up in `received`.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ElsewhereRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Elsewhere {
  /** http://127.0.0.1:PORT (no trailing slash). */
  origin: string;
  received: ElsewhereRequest[];
  close(): Promise<void>;
}

export async function startElsewhere(answer: unknown = {}): Promise<Elsewhere> {
  const received: ElsewhereRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answer with a redirect to `location` (an empty body, as most servers send). */
export function redirect(res: ServerResponse, status: number, location: string): void {
  res.writeHead(status, { location, 'content-length': '0' }).end();
}
