/**
 * The request pipeline of the sandbox: /_sandbox introspection (no auth, loopback only, never faulted),
 * and /v1: fault decision and rate-limit token (in arrival order) → latency → 429 when the bucket was empty →
 * auth → route → write permission → body → validation → handler → state save. Handlers are synchronous, so each
 * request applies atomically. With a rate limit, every answer carries its X-RateLimit-* headers.
 *
 * Two bearer tokens may be accepted: the admin token (its user is `store.tokenUser`) and, when configured, a
 * read-only token (user READ_TOKEN_USER_ID) that answers every GET like the admin token but is refused every
 * write with 403 before the body is read, so a refused write never changes state. Further write tokens
 * (`actorTokens`) each act as an existing user of the state: someone else changing the organization "behind
 * docops's back". Every change a write that succeeds makes is recorded in the audit log (audit-log.ts), its caller the actor.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestContext } from './context.js';
import { HttpError, badRequest, errorBody, readJsonBody, send, type Reply } from './http.js';
import type { PipelineDeps } from './pipeline.js';
import type { Resolution } from './router.js';
import { saveStateFile } from './state.js';
import { isPlainObject } from './validate.js';
import { handleIntrospection } from './introspection.js';
import { READ_TOKEN_USER_ID } from './seed.js';
import { eventsFor, recordingChanges } from './audit-log.js';
import { isPage } from './stale.js';

/** Who a request authenticates as. */
interface Caller {
  userId: string;
  readOnly: boolean;
}

function authenticate(authorization: string, deps: PipelineDeps): Caller {
  if (authorization === `Bearer ${deps.token}`) return { userId: deps.store.tokenUser, readOnly: false };
  if (deps.readToken !== undefined && authorization === `Bearer ${deps.readToken}`)
    return { userId: READ_TOKEN_USER_ID, readOnly: true };
  const actor = deps.actorTokens?.find((t) => authorization === `Bearer ${t.token}`);
  if (actor) return { userId: actor.userId, readOnly: false };
  const why =
    authorization === '' ? 'missing Authorization header (expected "Bearer <token>")' : 'invalid bearer token';
  throw new HttpError(401, why, { 'www-authenticate': 'Bearer' });
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** One bucket per accepted token; every other credential (none, unknown) shares one, so memory stays bounded. */
function bucketKey(authorization: string | undefined, deps: PipelineDeps): string {
  if (authorization === `Bearer ${deps.token}`) return 'token';
  if (deps.readToken !== undefined && authorization === `Bearer ${deps.readToken}`) return 'read-token';
  const actor = deps.actorTokens?.findIndex((t) => authorization === `Bearer ${t.token}`) ?? -1;
  if (actor >= 0) return `actor-${actor}`;
  return 'other';
}

export function createRequestListener(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    if (url.pathname === '/_sandbox' || url.pathname.startsWith('/_sandbox/')) {
      void handleIntrospection(req, res, url.pathname, deps);
      return;
    }
    if (url.pathname !== '/v1' && !url.pathname.startsWith('/v1/')) {
      send(res, {
        status: 404,
        body: errorBody(404, `no route for ${method} ${url.pathname} (the API lives below /v1)`),
      });
      return;
    }
    const resolution = deps.router.resolve(method, url.pathname);
    const route =
      resolution.kind === 'found'
        ? resolution.route.pattern
        : resolution.kind === 'method-not-allowed'
          ? resolution.pattern
          : '(unmatched)';
    const decision = deps.faults()?.decide(); // drawn synchronously: arrival order
    const limit = deps.rateLimiter()?.take(bucketKey(req.headers.authorization, deps)); // a token at arrival
    const limitHeaders = limit?.headers ?? {};
    // docops's request: the other actor's changes due before it land first, in arrival order (race.ts).
    const docops = req.headers.authorization === `Bearer ${deps.token}`;
    const landing = docops ? deps.race?.arrive(method, url.pathname) : undefined;
    const record = (status: number, fault?: string, rateLimited?: true): void =>
      deps.stats.record({
        method,
        route,
        path: url.pathname,
        status,
        ...(fault ? { fault } : {}),
        ...(decision && decision.delayMs > 0 ? { delayMs: decision.delayMs } : {}),
        ...(rateLimited ? { rateLimited } : {}),
      });

    void (async () => {
      await landing;
      if (decision && decision.delayMs > 0) await sleep(decision.delayMs);
      if (limit && !limit.allowed) {
        // Refused before anything else (the fault drawn for it is not applied): nothing happens.
        const seconds = limit.headers['retry-after'] ?? '1';
        record(429, undefined, true);
        send(res, {
          status: 429,
          body: errorBody(429, `API rate limit exceeded. Please try again in ${seconds} seconds`),
          headers: limitHeaders,
        });
        return;
      }
      const outcome = decision?.outcome ?? { kind: 'pass' };
      if (outcome.kind === 'reset') {
        record(0, 'reset');
        req.socket.destroy();
        return;
      }
      if (outcome.kind === 'status') {
        const message =
          outcome.status === 429
            ? 'too many requests (sandbox fault injection)'
            : 'upstream unavailable (sandbox fault injection)';
        record(outcome.status, outcome.status === 429 ? '429' : '5xx');
        send(res, {
          status: outcome.status,
          body: errorBody(outcome.status, message),
          headers: { ...limitHeaders, ...outcome.headers },
        });
        return;
      }
      const reply = await processApiRequest(req, url, resolution, deps);
      if (outcome.kind === 'resetAfter') {
        record(0, 'resetAfter');
        req.socket.destroy();
        return;
      }
      if (outcome.kind === 'statusAfter') {
        record(outcome.status, '5xxAfter');
        send(res, {
          status: outcome.status,
          body: errorBody(outcome.status, 'upstream unavailable after processing (sandbox fault injection)'),
          headers: limitHeaders,
        });
        return;
      }
      record(reply.status);
      if (docops) deps.race?.answered(method, url.pathname, reply);
      send(res, { ...reply, headers: { ...limitHeaders, ...reply.headers } });
    })().catch((err: unknown) => {
      // Only reachable on a bug in the pipeline itself; answer rather than hang the client.
      record(500);
      if (!res.headersSent)
        send(res, { status: 500, body: errorBody(500, `sandbox bug: ${String(err)}`), headers: limitHeaders });
      else res.destroy();
    });
  };
}

async function processApiRequest(
  req: IncomingMessage,
  url: URL,
  resolution: Resolution,
  deps: PipelineDeps,
): Promise<Reply> {
  const method = req.method ?? 'GET';
  try {
    const caller = authenticate(req.headers.authorization ?? '', deps);
    if (resolution.kind === 'not-found') throw new HttpError(404, `no route for ${method} ${url.pathname}`);
    if (resolution.kind === 'method-not-allowed') {
      throw new HttpError(
        405,
        `method ${method} is not allowed on ${url.pathname} (allowed: ${resolution.allowed.join(', ')})`,
        {
          allow: resolution.allowed.join(', '),
        },
      );
    }
    if (caller.readOnly && WRITE_METHODS.has(method)) {
      // Node discards the unread request body once the reply is sent; the connection stays usable.
      throw new HttpError(
        403,
        `forbidden: the token is read-only; its user "${caller.userId}" may not ${method} ${url.pathname}`,
      );
    }
    const raw = await readJsonBody(req, resolution.route.maxBodyBytes);
    return (await performRequest(deps, caller.userId, method, url, resolution, raw)).reply;
  } catch (err) {
    if (err instanceof HttpError)
      return { status: err.status, body: errorBody(err.status, err.message), headers: err.headers };
    return { status: 500, body: errorBody(500, `sandbox internal error: ${(err as Error).message}`) };
  }
}

/** Under `stale` (stale.ts): a list's answer as the store was then; a GET of one object stays current. */
async function lateList(reply: Reply, deps: PipelineDeps, late: () => Reply | Promise<Reply>): Promise<Reply> {
  if (deps.history?.lagMs === undefined || reply.status !== 200 || !isPage(reply.body)) return reply;
  try {
    return await late();
  } catch (err) {
    // The object the list is under did not exist then: nothing below it was listed yet.
    if (err instanceof HttpError && err.status === 404) return { status: 200, body: { count: 0, items: [] } };
    throw err;
  }
}

const lagged = (ctx: RequestContext, deps: PipelineDeps): RequestContext => ({
  ...ctx,
  store: deps.history!.view(deps.store),
});

/** A request as a handler sees it, made by `userId`. */
export function requestContext(
  deps: PipelineDeps,
  userId: string,
  method: string,
  url: URL,
  params: Record<string, string>,
): RequestContext {
  const origin = deps.origin();
  return {
    method,
    path: url.pathname,
    params,
    query: url.searchParams,
    store: deps.store,
    now: deps.now,
    userId,
    apiUrl: (p) => `${origin}/v1${p}`,
    appUrl: (p) => `https://app.sandbox.test${p}`,
    ...(deps.audit ? { audit: deps.audit } : {}),
  };
}

/**
 * What a request of an authenticated caller goes through once its raw body is read: validation → handler → audit →
 * state save. The race habit's other actor (race.ts) writes through it too. Throws HttpError as handlers do.
 */
export async function performRequest(
  deps: PipelineDeps,
  userId: string,
  method: string,
  url: URL,
  resolution: Extract<Resolution, { kind: 'found' }>,
  read: unknown,
): Promise<{ reply: Reply }> {
  const { route, params } = resolution;
  // Fields and values of an evolved object the validators do not know (evolve.ts): kept aside, restored after.
  const evolved = deps.evolution?.accept(method, url.pathname, read);
  const raw = evolved ? evolved.body : read;
  let body: unknown;
  if (route.body) {
    if (raw === undefined && !route.bodyOptional) throw badRequest('body: is required (a JSON object)');
    body = route.body(raw === undefined ? {} : raw, 'body');
  } else if (raw !== undefined && !(isPlainObject(raw) && Object.keys(raw).length === 0)) {
    throw badRequest('body: this operation takes no request body');
  }
  const ctx = requestContext(deps, userId, method, url, params);
  const write = WRITE_METHODS.has(method);
  // The race habit compares what docops's write does to the other actor's changes (race.ts).
  const watched = write ? deps.race?.beforeWrite(userId) : undefined;
  // Every row the write changes becomes an event (audit-log.ts); a refused write changed nothing.
  const { result: handled, changes } = await recordingChanges(async () => {
    const r = await route.handler(ctx, body);
    return evolved && r.status < 300 ? evolved.restore(ctx, r) : r;
  });
  // Under `stale`, a list answers as the store was then (stale.ts); a GET of one object stays current.
  const late = method === 'GET' ? await lateList(handled, deps, () => route.handler(lagged(ctx, deps), body)) : handled;
  const reply = deps.evolution ? deps.evolution.present(method, url.pathname, late) : late;
  watched?.after(method, url.pathname, reply.status);
  if (deps.audit && write && reply.status < 300) {
    for (const event of eventsFor(deps.store, changes, userId, deps.now())) deps.audit.add(event);
  }
  if (deps.stateFile && write && reply.status < 300) saveStateFile(deps.store, deps.stateFile);
  return { reply };
}
