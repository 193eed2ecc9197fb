/**
 * One request of a step as apply (apply.ts) sends it. A request that keeps an id from its response, or says how to
 * find what it creates, creates an object: it is retried only like a POST, and when it may have reached the server
 * it is looked up in its list (RecoverSpec, recover.ts) rather than sent again blindly.
 */
import type { ApiClient } from '../model/api-client.js';
import { ApiError } from '../model/errors.js';
import { recoverSpecs, type RequestSpec, type Step } from '../model/plan.js';
import { setTimeout as delay } from 'node:timers/promises';
import { findCreated, withElements } from './recover.js';

/** A create is looked up and sent again at most this many times after ambiguous failures. */
const MAX_RECOVERIES = 5;

/** A step cut short by the write gate between two of its requests. */
export class WritesStoppedError extends Error {
  constructor(readonly reason: string) {
    super(`writing stopped: ${reason}`);
    this.name = 'WritesStoppedError';
  }
}

/** A create that may have reached the server was looked up in its list: found, absent (sent again), or some of a batch. */
export type RecoveredEvent = {
  type: 'recovered';
  step: Step;
  request: string;
  outcome: 'found' | 'absent' | 'partly found';
};

/**
 * One request of a step; the response body. A request that keeps an id from its response, or says how to find
 * what it creates, creates an object: it is retried only like a POST (PUT /orgs/{id}/teams creates too) and,
 * when it may have reached the server, looked up rather than re-sent blindly.
 */
export async function send(
  client: ApiClient,
  step: Step,
  req: RequestSpec,
  path: string,
  body: unknown,
  emit: (e: RecoveredEvent) => void,
  write: {
    gate: () => string | undefined;
    signal: AbortSignal | undefined;
    /** Waits while a list may not show the create yet (default: a timer). */
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  },
): Promise<unknown> {
  const specs = recoverSpecs(req);
  const creates = specs.length > 0 || (req.capture !== undefined && Object.keys(req.capture).length > 0);
  // A create is retried by the POST rules whatever its method; a request the plan says is idempotent, like a PUT.
  const idempotent = creates ? { idempotent: false } : req.idempotent === true ? { idempotent: true } : {};
  const signal = write.signal;
  let payload = body;
  for (let round = 0; ; round++) {
    // A create sent again after a lookup is a new write: the gate is asked again.
    const stop = round > 0 ? write.gate() : undefined;
    if (stop !== undefined) throw new WritesStoppedError(stop);
    try {
      const res = await client.request(req.method, path, {
        ...(payload === undefined ? {} : { body: payload }),
        ...(req.joins ? { joins: req.joins } : {}),
        ...idempotent,
        ...(signal ? { signal } : {}),
      });
      return res.body;
    } catch (err) {
      if (!(err instanceof ApiError) || err.unreachable) throw err;
      const mayHaveHappened = err.effect === 'maybe' || err.effect === 'pending';
      // An earlier attempt may have deleted it: gone is what the DELETE wanted.
      if (req.method === 'DELETE' && err.status === 404 && mayHaveHappened) return undefined;
      if (specs.length === 0 || !mayHaveHappened || round >= MAX_RECOVERIES) throw err;
      const what = `${req.method} ${path}`;
      let found: Awaited<ReturnType<typeof findCreated>>;
      try {
        found = await lookUp(client, specs, path, payload, write);
      } catch (lookupErr) {
        const why = lookupErr instanceof Error ? lookupErr.message : String(lookupErr);
        throw new Error(
          `${err.message}; it may have been processed, and looking for what it creates failed: ${why} (the next plan will tell)`,
          { cause: lookupErr },
        );
      }
      if (found.kind === 'found') {
        emit({ type: 'recovered', step, request: what, outcome: 'found' });
        return found.item;
      }
      if (found.kind === 'several') {
        throw new Error(
          `${err.message}; it may have been processed, and ${found.ids.length} listed objects match what it creates (${found.ids.join(', ')}): not guessing which, resolve by hand`,
          { cause: err },
        );
      }
      const left = found.kind === 'batch' ? found.missing : undefined;
      const missing = left?.reduce((n, m) => n + m.elements.length, 0);
      if (missing === 0) {
        emit({ type: 'recovered', step, request: what, outcome: 'found' });
        return undefined;
      }
      if (err.effect === 'pending') {
        throw new Error(
          `${err.message}; no answer in time, and what it creates is not listed yet: the server may still process it, so it was not sent again (the next plan will tell)`,
          { cause: err },
        );
      }
      const partly = found.kind === 'batch' && missing !== undefined && missing < found.total;
      emit({ type: 'recovered', step, request: what, outcome: partly ? 'partly found' : 'absent' });
      // Sent again with only what is not there yet.
      for (const m of left ?? []) payload = withElements(payload, m.each, m.elements);
    }
  }
}

/** How long after the first, at most, each look again waits while a list may still be behind. */
const LOOK_AGAIN_MS = [250, 500, 1000, 2000, 4000] as const;

/**
 * Find what a create that may have happened made. A list may show a change a while after it was made (lagging
 * lists, src/api/expectations.ts): "not listed" is an answer only once the list is newer than the create, so
 * while the client says lists may lag, the list is read again (0.25, 0.5, 1, 2, 4, 4 … s apart) until the object
 * shows or that lag has passed since the create failed.
 */
async function lookUp(
  client: ApiClient,
  specs: ReturnType<typeof recoverSpecs>,
  path: string,
  payload: unknown,
  write: { signal: AbortSignal | undefined; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> },
): Promise<Awaited<ReturnType<typeof findCreated>>> {
  const lag = client.listLag?.() ?? 0;
  const wait = write.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, signal ? { signal } : {}));
  let found = await findCreated(client, specs, path, payload);
  for (let waited = 0, i = 0; waited < lag && notAllThere(found); i++) {
    const ms = Math.min(LOOK_AGAIN_MS[Math.min(i, LOOK_AGAIN_MS.length - 1)]!, lag - waited);
    await wait(ms, write.signal);
    waited += ms;
    found = await findCreated(client, specs, path, payload);
  }
  return found;
}

const notAllThere = (found: Awaited<ReturnType<typeof findCreated>>): boolean =>
  found.kind === 'absent' || (found.kind === 'batch' && found.missing.some((m) => m.elements.length > 0));
