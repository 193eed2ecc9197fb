/** What a route handler receives, and the handler type. */
import type { Reply } from './http.js';
import type { AuditLog } from './audit-log.js';
import type { SandboxStore } from './store.js';

export interface RequestContext {
  method: string;
  /** The path without the query string, e.g. `/v1/orgs/org-demo/teams`. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  store: SandboxStore;
  now: () => Date;
  /** The authenticated user (from the bearer token). */
  userId: string;
  /** Absolute URL of an API path below /v1, e.g. apiUrl('/orgs/o1') → http://127.0.0.1:PORT/v1/orgs/o1. */
  apiUrl(path: string): string;
  /** Absolute URL in the (fictional) web app, for the `urls.app` fields. */
  appUrl(path: string): string;
  /** The audit log (GET /orgs/{id}/audit-events); absent in contexts built without one. */
  audit?: AuditLog;
}

/** `body` is the route validator's output (undefined for operations without a body). */
export type Handler<B = undefined> = (ctx: RequestContext, body: B) => Reply | Promise<Reply>;

/** Read a path parameter that the route pattern guarantees. */
export function param(ctx: RequestContext, name: string): string {
  const v = ctx.params[name];
  if (v === undefined) throw new Error(`route has no :${name} parameter`);
  return v;
}
