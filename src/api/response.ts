/** Turning raw HTTP answers and transport errors into bodies, header maps and error messages (pure helpers for client.ts). */
import { STATUS_CODES } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export const REDACTED = '[REDACTED]';

/** Removes every occurrence of the secret from a text (a server may echo the token back). */
export function redact(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join(REDACTED);
}

/** Statuses that never carry a body. */
export function hasNoBody(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false };

/** Empty text is no body; anything else must be JSON. */
export function parseJsonBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A redirect (300–308 but 304, which answers a conditional request docops never sends). */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

/**
 * Why a 3xx fails the request: the client never follows one (docs/reliability.md, "Redirects"), so the token,
 * a body and the trust in the answer never move to wherever the Location header points.
 */
export const REDIRECT_REFUSED =
  'answered a redirect, which docops does not follow: it sends requests only to the configured API URL';

/** The API's `{error: {code, message}}` message, else the status text, else a generic one. */
export function errorMessageOf(status: number, body: unknown, statusText: string | undefined): string {
  if (body !== null && typeof body === 'object') {
    const error = (body as { error?: unknown }).error;
    if (error !== null && typeof error === 'object') {
      const message = (error as { message?: unknown }).message;
      if (typeof message === 'string' && message !== '') return message;
    }
  }
  if (statusText !== undefined && statusText !== '') return statusText;
  return STATUS_CODES[status] ?? `HTTP ${status}`;
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A transport error's message, with its code when the message does not say it. */
export function networkMessage(err: unknown, code: string | undefined): string {
  const detail = err instanceof Error && err.message !== '' ? err.message : undefined;
  if (code === undefined) return detail ?? 'network error';
  return detail === undefined || detail.includes(code) ? (detail ?? code) : `${code}: ${detail}`;
}

/**
 * Transport errors do not carry request headers, but keep the cause minimal anyway: a plain Error with
 * the (redacted) message and code, so nothing reachable from an ApiError can hold the token.
 */
export function sanitizedCause(err: unknown, code: string | undefined, token: string | undefined): Error {
  const cause = new Error(redact(err instanceof Error ? err.message : String(err), token));
  cause.name = err instanceof Error ? err.name : 'Error';
  if (code !== undefined) Object.assign(cause, { code });
  return cause;
}
