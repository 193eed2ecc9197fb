/**
 * Endpoints outside /v1 for tests and benchmarks: no auth, loopback clients only, never faulted or counted.
 *   GET  /_sandbox/stats         request counters and the ordered request log
 *   POST /_sandbox/stats/reset   clear them
 *   GET  /_sandbox/state         the full JSON snapshot
 *   PUT  /_sandbox/state         replace the state with a snapshot
 *   GET  /_sandbox/faults        the current fault spec
 *   PUT  /_sandbox/faults        set faults: {"spec": "429=0.1,seed=3"} or {"spec": null} to clear
 *   GET  /_sandbox/races         the race habit's log: the other actor's changes, and docops's writes that undid one
 *   PUT  /_sandbox/sites/{siteId}/git-sync   a site's Git Sync state (the spec's GitSyncState), or null to disconnect
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, errorBody, readJsonBody, send, type Reply } from './http.js';
import type { PipelineDeps } from './pipeline.js';
import { setSiteGitSync } from './git-sync.js';
import { saveStateFile } from './state.js';
import { isPlainObject } from './validate.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export async function handleIntrospection(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  deps: PipelineDeps,
): Promise<void> {
  let reply: Reply;
  try {
    if (!LOOPBACK.test(req.socket.remoteAddress ?? ''))
      throw new HttpError(403, 'sandbox introspection is only available from loopback');
    reply = await route(req, path, deps);
  } catch (err) {
    const status = err instanceof HttpError ? err.status : 400;
    reply = { status, body: errorBody(status, (err as Error).message) };
  }
  send(res, reply);
}

async function route(req: IncomingMessage, path: string, deps: PipelineDeps): Promise<Reply> {
  const key = `${req.method ?? 'GET'} ${path}`;
  switch (key) {
    case 'GET /_sandbox/stats':
      return { status: 200, body: deps.stats.snapshot() };
    case 'POST /_sandbox/stats/reset':
      deps.stats.reset();
      return { status: 204 };
    case 'GET /_sandbox/state':
      return { status: 200, body: deps.store.snapshot() };
    case 'PUT /_sandbox/state': {
      deps.store.load(await readJsonBody(req));
      deps.afterStateLoad?.();
      if (deps.stateFile) saveStateFile(deps.store, deps.stateFile);
      return { status: 204 };
    }
    case 'GET /_sandbox/races':
      return { status: 200, body: deps.race?.report() ?? { races: [], undone: [] } };
    case 'GET /_sandbox/faults':
      return { status: 200, body: { spec: deps.faults()?.spec ?? null } };
    case 'PUT /_sandbox/faults': {
      const body = await readJsonBody(req);
      if (!isPlainObject(body) || !('spec' in body))
        throw new HttpError(400, 'body must be {"spec": "<fault spec>" | {…} | null}');
      deps.setFaults(body['spec'] ?? undefined);
      return { status: 200, body: { spec: deps.faults()?.spec ?? null } };
    }
    default: {
      const gitSync = /^PUT \/_sandbox\/sites\/([^/]+)\/git-sync$/.exec(key);
      if (gitSync) {
        const state = setSiteGitSync(deps.store, decodeURIComponent(gitSync[1]!), await readJsonBody(req));
        if (deps.stateFile) saveStateFile(deps.store, deps.stateFile);
        return { status: 200, body: { gitSync: state } };
      }
      throw new HttpError(404, `no sandbox introspection route ${key}`);
    }
  }
}
