/** A local HTTP receiver on 127.0.0.1 (ephemeral port) that records what it is sent and answers as told. */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer, in order (then 200). A status of 0 holds the answer until `release()`. */
  answers: number[];
  /** The Location header of every 3xx answer. */
  location?: string;
  /** Resolves when `n` requests have arrived in total. */
  count(n: number): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const held: (() => void)[] = [];
  const r: Receiver = {
    url: '',
    received,
    answers: [],
    count: (n) => (received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    release: () => held.splice(0).forEach((f) => f()),
    close: async () => {
      r.release();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, body, json: JSON.parse(body) });
      for (const w of waiters.filter((x) => received.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const status = r.answers.shift() ?? 200;
      const redirect = status >= 300 && status < 400 && r.location !== undefined ? { location: r.location } : {};
      const answer = (code: number): void =>
        void res.writeHead(code, { 'content-type': 'text/plain', ...redirect }).end('ok');
      if (status === 0) held.push(() => answer(200));
      else answer(status);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}
