/** Turning raw HTTP answers into bodies, header maps and error messages (pure helpers for client.ts). */
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
export const REDIRECT_REFUSED = 'answered a redirect, which docops does not follow: it sends requests only to the configured API URL';

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
