/** Shared helpers for the sandbox tests: start a sandbox and call it over real HTTP. */
import { afterEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@docops/sandbox';

// Response bodies are inspected dynamically in tests; `any` keeps the assertions readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Res<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Client {
  sb: RunningSandbox;
  call<T = Json>(
    method: string,
    path: string,
    body?: unknown,
    opts?: { token?: string | null; raw?: string },
  ): Promise<Res<T>>;
}

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Start a sandbox (closed after the test) and a caller for paths below /v1. */
export async function sandbox(opts: SandboxOptions = {}): Promise<Client> {
  const sb = await startSandbox(opts);
  running.push(sb);
  return { sb, call: (method, path, body, o) => request(sb, method, path, body, o) };
}

export async function request(
  sb: RunningSandbox,
  method: string,
  path: string,
  body?: unknown,
  opts: { token?: string | null; raw?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = opts.token === undefined ? sb.token : opts.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const payload = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const url = path.startsWith('/_sandbox') ? sb.origin + path : sb.url + path;
  const res = await fetch(url, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

/** A controllable clock for soft-delete tests. */
export function manualClock(start = '2025-03-01T12:00:00.000Z'): { now: () => Date; advance(ms: number): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms) => void (t += ms) };
}

export const DAY = 24 * 60 * 60 * 1000;
