/**
 * Waiting for a write the server finishes after answering (RequestSpec.settle, SettleSpec in plan.ts): read a path
 * until the plan's conditions hold, then fail when it shows one of the plan's failure fields. Only reads; what to
 * wait for is the plan's, how long between reads is here.
 */
import type { ApiClient } from '../model/api-client.js';
import type { SettleSpec } from '../model/plan.js';
import { pick } from './recover.js';

/** Delay before each read, by read number; reads past the end wait the last delay. The first read is immediate. */
export const SETTLE_DELAYS_MS: readonly number[] = [0, 250, 500, 1000, 2000, 4000, 8000];

export interface SettleOptions {
  /** Waits between reads (tests pass one that returns at once). Default: a timer, cut short by `signal`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Aborted: no further read; the step fails saying the outcome is not known yet. */
  signal?: AbortSignal;
}

const delayOf = (read: number): number => SETTLE_DELAYS_MS[Math.min(read, SETTLE_DELAYS_MS.length - 1)]!;

const timer = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** A server's message on one line, at most 300 characters (parser messages quote the input over several lines). */
const oneLine = (s: string): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
};

const conditions = (spec: SettleSpec): string => spec.until.map((c) => `${c.field} ${c.value}`).join(', ');

/**
 * Read `spec.path` until it settles; throws (failing the step) when it shows a failure field, never settles within
 * `spec.reads` reads, or apply is stopped. `after` names the write, for messages (`PUT /orgs/o/openapi/pets`).
 */
export async function settle(
  client: ApiClient,
  spec: SettleSpec,
  after: string,
  options: SettleOptions = {},
): Promise<void> {
  const sleep = options.sleep ?? timer;
  let last: unknown;
  for (let read = 0; read < Math.max(1, spec.reads); read++) {
    const delay = delayOf(read);
    if (delay > 0) await sleep(delay, options.signal);
    if (options.signal?.aborted) {
      throw new Error(
        `${after} was sent, and apply was stopped before ${spec.path} showed ${conditions(spec)}: the next plan shows the outcome`,
      );
    }
    last = await client.get(spec.path);
    if (spec.until.every((c) => pick(last, c.field) === c.value)) {
      failIfShown(spec, last, after);
      return;
    }
  }
  const seen = spec.until.map((c) => `${c.field} ${JSON.stringify(pick(last, c.field) ?? null)}`).join(', ');
  throw new Error(
    `${after} was sent, and ${spec.path} still shows ${seen} after ${spec.reads} reads (waiting for ${conditions(spec)}): the next plan shows the outcome`,
  );
}

function failIfShown(spec: SettleSpec, body: unknown, after: string): void {
  for (const f of spec.failWhen ?? []) {
    const value = pick(body, f.field);
    if (!isSet(value)) continue;
    const detail = f.detail === undefined ? undefined : pick(body, f.detail);
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    throw new Error(
      `${f.message ?? `${after} did not succeed`}: ${f.field} ${oneLine(shown)}${typeof detail === 'string' && detail !== '' ? ` (${oneLine(detail)})` : ''}`,
    );
  }
}
