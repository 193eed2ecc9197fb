/**
 * One attempt of a request on the wire (client.ts): the keep-alive undici Pool for the API origin, the priority
 * gate in front of it (later pages of a list go first) and the rate-limit pacer shared by the process.
 */
import { Pool } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpMethod } from '../model/plan.js';
import { sharedPacer, type Answer, type Pacer } from './pacer.js';
import { createPriorityGate } from './priority-gate.js';
import { hasNoBody } from './response.js';
import type { ClientOptions } from './client-options.js';

/** An HTTP answer as read: its status, headers and body text (empty for a status that has no body). */
export interface RawResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  text: string;
}

/** What an attempt is sent as: `urgent`, a later page of a list; `background`, it yields to every other request. */
export interface AttemptRequest {
  method: HttpMethod;
  target: string;
  payload: string | undefined;
  signal: AbortSignal | undefined;
  urgent: boolean;
  background: boolean;
}

export interface Transport {
  attempt(request: AttemptRequest): Promise<RawResponse>;
  pacer: Pacer;
  /** Closes the Pool and lets go of the pacer (and of the rate-limit wait notices). */
  close(): Promise<void>;
}

export function createTransport(
  opts: ClientOptions,
  origin: string,
  baseUrl: string,
  token: string | undefined,
): Transport {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const pool = new Pool(origin, {
    connections: Math.max(1, opts.concurrency ?? 8),
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs },
  });
  // Bounds attempts in flight in front of the Pool (whose own queue is FIFO) so later pages of a list go first.
  const gate = createPriorityGate(opts.concurrency ?? 8);
  const paced = opts.pacer !== undefined ? { pacer: opts.pacer, release: () => {} } : sharedPacer(baseUrl, token);
  const pacer = paced.pacer;
  const stopTelling = opts.onRateLimitWait ? pacer.onLongWait(opts.onRateLimitWait) : () => {};

  const baseHeaders: Record<string, string> = { accept: 'application/json', 'user-agent': opts.userAgent ?? 'docops' };
  if (token !== undefined && token !== '') baseHeaders.authorization = `Bearer ${token}`;

  async function attempt({
    method,
    target,
    payload,
    signal,
    urgent,
    background,
  }: AttemptRequest): Promise<RawResponse> {
    const headers = payload === undefined ? baseHeaders : { ...baseHeaders, 'content-type': 'application/json' };
    return gate.run(
      urgent,
      async () => {
        // Inside the gate: a paced request holds its slot, so urgent pages still go first once the budget allows.
        const pending = pacer.acquire(signal, background);
        const ticket = pending instanceof Promise ? await pending : pending;
        let answer: Answer | undefined;
        let res;
        try {
          res = await pool.request({ method, path: target, headers, body: payload, signal });
          answer = { status: res.statusCode, headers: res.headers };
        } finally {
          pacer.settle(ticket, answer);
        }
        if (hasNoBody(res.statusCode)) {
          await res.body.dump();
          return { status: res.statusCode, statusText: res.statusText, headers: res.headers, text: '' };
        }
        const text = await res.body.text();
        return { status: res.statusCode, statusText: res.statusText, headers: res.headers, text };
      },
      background,
    );
  }

  return {
    attempt,
    pacer,
    close: () => {
      stopTelling();
      paced.release();
      return pool.close();
    },
  };
}
