/**
 * Reads kept between runs (the daemon's informer, src/daemon/informer): the answers of every list and GET the
 * kinds' fetches asked for, served again by a FetchContext over them, so a kind's fetch runs unchanged over
 * what was read before. A change the audit log shows marks reads stale (kind.ts StaleRead): a whole list, one item
 * of a list, a GET, or everything below a path. Stale reads are lazy — the next fetch re-reads only what it asks
 * for; an item is read alone (GET its path) and put in its list's place, removed when it is gone, and a new item
 * (its place in the list unknown) re-reads the list. A pass forgets the reads no fetch asked for.
 *
 * Answers are frozen: a fetch that changed one would change what the next run reads.
 */
import type { ApiClient } from '../model/api-client.js';
import { ApiError } from '../model/errors.js';
import type { FetchContext, ReadsView, StaleRead } from '../model/kind.js';

type Query = Record<string, string | number | boolean>;
type ItemPatch = NonNullable<Extract<StaleRead, { list: string }>['item']>;

interface Entry {
  path: string;
  query?: Query;
  list: boolean;
  value: Promise<unknown> | undefined;
  /** The value once it arrived (lists are searched through it). */
  settled?: unknown;
  /** Read it again whole at its next use. */
  stale: boolean;
  /** Items of a list to read alone at its next use, by id. */
  patches: Map<string, ItemPatch>;
  used: boolean;
}

const keyOf = (list: boolean, path: string, query?: Query): string =>
  `${list ? 'L' : 'G'} ${path}?${query ? new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString() : ''}`;

const isGone = (err: unknown): boolean => err instanceof ApiError && (err.status === 404 || err.status === 410);

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export class ReadCache implements ReadsView {
  private readonly entries = new Map<string, Entry>();

  /** How many reads are kept. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * A FetchContext for one pass over the reads (every kind's fetch of a run): hits are served, misses and stale
   * reads are read through `client` and kept. `end()` forgets what the pass did not ask for.
   */
  pass(client: ApiClient, prune: (kind: string, org: string) => boolean): { context: FetchContext; end(): void } {
    for (const e of this.entries.values()) e.used = false;
    const context: FetchContext = {
      client,
      prune,
      list: <T>(path: string, query?: Query) => this.read(client, true, path, query) as Promise<T[]>,
      get: <T>(path: string) => this.read(client, false, path) as Promise<T>,
    };
    return {
      context,
      end: () => {
        for (const [k, e] of this.entries) if (!e.used) this.entries.delete(k);
      },
    };
  }

  /** Mark reads stale (lazy: read again when next asked for). */
  invalidate(stale: StaleRead): void {
    for (const e of this.entries.values()) {
      if ('under' in stale) {
        if (e.path === stale.under || e.path.startsWith(`${stale.under}/`)) this.markStale(e);
      } else if ('get' in stale) {
        if (!e.list && e.path === stale.get) this.markStale(e);
      } else if (e.list && e.path === stale.list) {
        if (!stale.item) this.markStale(e);
        else if (!e.stale) e.patches.set(stale.item.id, stale.item);
      }
    }
  }

  lists(prefix: string): { path: string; items: readonly unknown[] }[] {
    const out: { path: string; items: readonly unknown[] }[] = [];
    for (const e of this.entries.values()) {
      if (e.list && Array.isArray(e.settled) && e.path.startsWith(prefix)) out.push({ path: e.path, items: e.settled });
    }
    return out;
  }

  private markStale(e: Entry): void {
    e.stale = true;
    e.patches.clear();
  }

  private read(client: ApiClient, list: boolean, path: string, query?: Query): Promise<unknown> {
    const key = keyOf(list, path, query);
    let e = this.entries.get(key);
    if (!e) {
      e = { path, ...(query ? { query } : {}), list, value: undefined, stale: true, patches: new Map(), used: false };
      this.entries.set(key, e);
    }
    e.used = true;
    if (e.value === undefined || e.stale) {
      e.stale = false;
      e.patches.clear();
      return this.keep(key, e, list ? client.listAll(path, query) : client.get(path));
    }
    if (e.patches.size > 0) {
      const patches = [...e.patches.values()];
      e.patches.clear();
      return this.keep(
        key,
        e,
        patched(client, e.value as Promise<unknown[]>, patches, () => client.listAll(path, query)),
      );
    }
    return e.value;
  }

  /** The entry's value from now on; a read that fails forgets the entry (the next use reads it whole). */
  private keep(key: string, e: Entry, value: Promise<unknown>): Promise<unknown> {
    const frozen = value.then((v) => {
      deepFreeze(v);
      if (e.value === frozen) e.settled = v;
      return v;
    });
    e.value = frozen;
    frozen.catch(() => {
      if (this.entries.get(key) === e && e.value === frozen) this.entries.delete(key);
    });
    return frozen;
  }
}

/** `before` with each patched item read alone; a new item (its place unknown) makes it a fresh read of the list. */
async function patched(
  client: ApiClient,
  before: Promise<unknown[]>,
  patches: readonly ItemPatch[],
  relist: () => Promise<unknown[]>,
): Promise<unknown[]> {
  const [items, answers] = await Promise.all([
    before,
    Promise.all(
      patches.map((p) => client.get(p.path).catch((err: unknown) => (isGone(err) ? undefined : Promise.reject(err)))),
    ),
  ]);
  let out = [...items];
  for (const [i, p] of patches.entries()) {
    const key = p.key ?? 'id';
    const isIt = (item: unknown): boolean =>
      item !== null && typeof item === 'object' && (item as Record<string, unknown>)[key] === p.id;
    const answer = answers[i];
    const listed =
      answer !== null &&
      typeof answer === 'object' &&
      (p.hiddenIf === undefined || (answer as Record<string, unknown>)[p.hiddenIf] == null);
    if (!listed) {
      out = out.filter((item) => !isIt(item));
      continue;
    }
    const at = out.findIndex(isIt);
    if (at < 0) return relist();
    out[at] = answer;
  }
  return out;
}
