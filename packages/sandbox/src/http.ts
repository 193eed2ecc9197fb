/** HTTP plumbing shared by the sandbox: the error type handlers throw, replies, and body reading. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Thrown by handlers and validators; the server turns it into the official error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const notFound = (message: string): HttpError => new HttpError(404, message);

/** What a handler returns: a status and, except for 204/205, a JSON body. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
export const resetContent = (): Reply => ({ status: 205 });

export function errorBody(status: number, message: string): { error: { code: number; message: string } } {
  return { error: { code: status, message } };
}

export function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.status === 204 || reply.status === 205 || reply.body === undefined) {
    // No body; an explicit zero length keeps keep-alive connections well framed for 205 too.
    if (reply.status !== 204) headers['content-length'] = '0';
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers);
  res.end(text);
}

/** What a request body may be, unless its route says otherwise (RouteDef.maxBodyBytes). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Read the whole body; `undefined` when empty. Invalid JSON ⇒ 400, larger than `max` ⇒ 413. */
export async function readJsonBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > max) throw new HttpError(413, `request body exceeds ${max} bytes`);
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw badRequest(`request body is not valid JSON: ${(err as Error).message}`);
  }
}
