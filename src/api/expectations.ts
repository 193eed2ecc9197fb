/**
 * Lists that lag (docs/reliability.md, "Lists that answer late"): on many platforms a list endpoint is served from
 * an index that shows a change a while after it was made, while a GET of one object is current. A controller that
 * trusts such a list creates twice what it just created, and deletes again (or re-creates) what it just renamed.
 * client-go's controllers keep "expectations" for this; so does docops.
 *
 * Every write docops sends that the API answered leaves an expectation on the list its object lives in, read off
 * the request and its answer (no kind is named: the API's paths say it):
 * - `DELETE L/x` — L no longer holds x;
 * - a write to `L/x` answered with the object (its `id`, or the `slug` a path names it by, is x) — L holds that
 *   object with the values the write set;
 * - a create: a POST or PUT to a collection `L` answered with a new object (an id the path does not name) — L holds it.
 * A list read later that does not show an expectation yet is answered as it will be (the object added, put back
 * as written, or left out) and the expectation kept; one that shows it settles it. An expectation is trusted for
 * twice the lag the lists are known to have (`lagMs`: at least the configured floor, more once a list was seen
 * later than that): after that the list is taken as it is — a change someone else made since is never hidden
 * longer than that. A list read with a query (a filter) is answered as it is.
 */
import type { ApiClient, RequestOptions } from '../model/api-client.js';
import type { HttpMethod } from '../model/plan.js';
import { isRecord } from '../model/json.js';

/** How far behind a write the lists may answer when nothing says otherwise (docops.yaml `listLagSeconds`). */
export const DEFAULT_LIST_LAG_MS = 5_000;

export interface Expectation {
  /** The list (a path below the API base, no query). */
  list: string;
  /** The object's id, or the key its path names it by (a slug). */
  id: string;
  /** true: the list holds `item`; false: it holds nothing named `id`. */
  present: boolean;
  item?: Record<string, unknown>;
  /** Top-level fields the write set (an update: a listing without them is an old one). Absent: presence is enough. */
  fields?: string[];
  /** When the write was sent (ms). */
  sentAt: number;
}

/** What is kept between processes (a CLI apply, then a plan): docs/reliability.md. */
export interface ExpectationsFile {
  version: 1;
  lagMs: number;
  expectations: Expectation[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether a listed item is the object an expectation names: its id, or the slug a path names it by; an item that
 * has no id of its own and wraps one object (a grant: `{permission, team}`) is named by that object's id.
 */
const names = (item: unknown, id: string): boolean =>
  isRecord(item) &&
  (item['id'] === id ||
    item['slug'] === id ||
    (item['id'] === undefined && Object.values(item).some((v) => isRecord(v) && v['id'] === id)));

export class Expectations {
  private readonly byList = new Map<string, Map<string, Expectation>>();
  /**
   * The lists each object was seen in, by its own path (`urls.location`): `/spaces/s1` is listed in
   * `/orgs/o/spaces`, so a write to it leaves its expectation there.
   */
  private readonly containers = new Map<string, Set<string>>();
  /**
   * The list each type of object is in, below its owner (`/orgs/o/sites/s1` + `site-space` →
   * `/orgs/o/sites/s1/site-spaces`): an answer carrying objects its write made on the way (a section's create
   * answers with the site spaces it made) leaves their expectations there.
   */
  private readonly typeLists = new Map<string, string>();
  /** The longest a list was seen behind a write of docops's own (ms). */
  private learnedMs = 0;

  constructor(
    private readonly floorMs: number,
    private readonly now: () => number = Date.now,
    /** The API base URL: `urls.location` values below it name objects by path. */
    private readonly baseUrl = '',
  ) {}

  /** How long after a write a list may still not show it: the configured floor, or longer once seen. */
  lagMs(): number {
    return Math.max(this.floorMs, this.learnedMs);
  }

  get size(): number {
    let n = 0;
    for (const m of this.byList.values()) n += m.size;
    return n;
  }

  /** A write the API answered 2xx: what lists will show of it. */
  wrote(method: string, path: string, body: unknown, answer: unknown, sentAt: number): void {
    const parts = path.split('/');
    const last = parts.at(-1) ?? '';
    if (method === 'DELETE') {
      for (const list of this.listsOf(path)) this.expect({ list, id: last, present: false, sentAt });
      return;
    }
    if (method === 'GET' || !isRecord(answer) || typeof answer['id'] !== 'string') return;
    const id = answer['id'];
    const fields = isRecord(body) ? Object.keys(body).filter((k) => k in answer) : [];
    const at = this.locationOf(answer);
    if (at !== undefined && at !== path && this.containers.has(at)) {
      // An action on the object (`POST /spaces/s1/move`) answered with it: its lists show the new values.
      for (const list of this.listsOf(at)) this.expect({ list, id, present: true, item: answer, fields, sentAt });
    } else if (names(answer, last)) {
      for (const list of this.listsOf(path))
        this.expect({ list, id: last, present: true, item: answer, fields, sentAt });
    } else if ((method === 'POST' || method === 'PUT') && !parts.includes(id)) {
      this.expect({ list: path, id, present: true, item: answer, sentAt });
      if (at !== undefined) this.containers.set(at, new Set([path]));
      this.madeOnTheWay(parts.slice(0, -1).join('/'), answer, sentAt);
    }
  }

  /** Objects a create's answer carries (arrays of typed objects) that are listed below the same owner. */
  private madeOnTheWay(owner: string, answer: Record<string, unknown>, sentAt: number): void {
    for (const value of Object.values(answer)) {
      if (!Array.isArray(value)) continue;
      for (const item of value) {
        if (!isRecord(item) || typeof item['id'] !== 'string' || typeof item['object'] !== 'string') continue;
        const list = this.typeLists.get(`${owner}\u0000${item['object']}`);
        if (list !== undefined) this.expect({ list, id: item['id'], present: true, item, sentAt });
      }
    }
  }

  /** Someone else wrote the object `id` since: its lists are taken as they answer. */
  forget(id: string): void {
    for (const [list, m] of this.byList) {
      m.delete(id);
      if (m.size === 0) this.byList.delete(list);
    }
  }

  /** An object of `list` made by a write that answered with its id only (read by id since). */
  joined(list: string, id: string, item: unknown, sentAt: number): void {
    if (isRecord(item)) this.expect({ list, id, present: true, item, sentAt });
  }

  /** The lists an object (by its path) is in: those it was seen in, and the collection its path is below. */
  private listsOf(objectPath: string): string[] {
    const parent = objectPath.split('/').slice(0, -1).join('/');
    return [...new Set([parent, ...(this.containers.get(objectPath) ?? [])])];
  }

  private locationOf(item: unknown): string | undefined {
    const urls = isRecord(item) ? item['urls'] : undefined;
    const location = isRecord(urls) ? urls['location'] : undefined;
    if (typeof location !== 'string' || this.baseUrl === '' || !location.startsWith(`${this.baseUrl}/`))
      return undefined;
    return location.slice(this.baseUrl.length);
  }

  /** A list's items as they will be once it shows docops's own writes (see the file comment). */
  overlay<T>(path: string, items: T[], askedAt: number): T[] {
    const owner = path.split('/').slice(0, -1).join('/');
    for (const item of items) {
      if (isRecord(item) && typeof item['object'] === 'string')
        this.typeLists.set(`${owner}\u0000${item['object']}`, path);
      const at = this.locationOf(item);
      if (at === undefined || at === `${path}/${String((item as Record<string, unknown>)['id'])}`) continue;
      let lists = this.containers.get(at);
      if (!lists) this.containers.set(at, (lists = new Set()));
      lists.add(path);
    }
    const expected = this.byList.get(path);
    if (!expected) return items;
    const out: unknown[] = [...items];
    for (const [key, e] of expected) {
      const behind = askedAt - e.sentAt;
      if (behind > 2 * this.lagMs()) {
        expected.delete(key); // older than any lag the lists have: the list is right
        continue;
      }
      const at = out.findIndex((item) => names(item, e.id));
      const shown = e.present
        ? at >= 0 && (e.fields ?? []).every((f) => same((out[at] as Record<string, unknown>)[f], e.item?.[f]))
        : at < 0;
      if (shown) {
        expected.delete(key);
        continue;
      }
      // Learnt only from presence: a value someone else wrote since looks just like a list behind.
      if (!e.present || at < 0) this.learnedMs = Math.max(this.learnedMs, behind);
      if (!e.present) out.splice(at, 1);
      else if (at >= 0) out[at] = { ...(out[at] as Record<string, unknown>), ...e.item };
      else out.push(e.item);
    }
    if (expected.size === 0) this.byList.delete(path);
    return out as T[];
  }

  toJSON(): ExpectationsFile {
    const now = this.now();
    const expectations = [...this.byList.values()]
      .flatMap((m) => [...m.values()])
      .filter((e) => now - e.sentAt <= 2 * this.lagMs());
    return { version: 1, lagMs: this.learnedMs, expectations };
  }

  /** Take what a file kept (a malformed one is ignored: it only costs the protection it would have given). */
  load(file: unknown): void {
    if (!isRecord(file) || file['version'] !== 1 || !Array.isArray(file['expectations'])) return;
    if (typeof file['lagMs'] === 'number' && Number.isFinite(file['lagMs']))
      this.learnedMs = Math.max(this.learnedMs, file['lagMs']);
    for (const e of file['expectations']) {
      if (!isRecord(e) || typeof e['list'] !== 'string' || typeof e['id'] !== 'string') continue;
      if (typeof e['present'] !== 'boolean' || typeof e['sentAt'] !== 'number') continue;
      const item = isRecord(e['item']) ? e['item'] : undefined;
      if (e['present'] && !item) continue;
      const fields = Array.isArray(e['fields']) ? e['fields'].filter((f) => typeof f === 'string') : undefined;
      this.expect({
        list: e['list'],
        id: e['id'],
        present: e['present'],
        ...(item ? { item } : {}),
        ...(fields ? { fields } : {}),
        sentAt: e['sentAt'],
      });
    }
  }

  private expect(e: Expectation): void {
    let m = this.byList.get(e.list);
    if (!m) this.byList.set(e.list, (m = new Map()));
    m.set(e.id, e);
  }
}

/** The client, with every write it sends remembered and every list it reads answered as it will be. */
export function expecting(client: ApiClient, expectations: Expectations, now: () => number = Date.now): ApiClient {
  const plain = (query: RequestOptions['query']): boolean =>
    query === undefined || Object.values(query).every((v) => v === undefined);
  const listAll = async <T = unknown>(path: string, query?: RequestOptions['query']): Promise<T[]> => {
    if (!plain(query)) return client.listAll<T>(path, query);
    const askedAt = now();
    return expectations.overlay(path, await client.listAll<T>(path), askedAt);
  };
  /** Objects a create names by id only (RequestOptions.joins): each read once, as it is now. */
  const joined = async (joins: { list: string; ids: string }, answer: unknown, sentAt: number): Promise<void> => {
    const ids = pointer(answer, joins.ids);
    if (!Array.isArray(ids)) return;
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      const item = await client.get(`${joins.list}/${encodeURIComponent(id)}`).catch(() => undefined);
      expectations.joined(joins.list, id, item, sentAt);
    }
  };
  const wrapped: ApiClient = {
    baseUrl: client.baseUrl,
    async request<T = unknown>(method: HttpMethod, path: string, options: RequestOptions = {}) {
      const sentAt = now();
      const res = await client.request<T>(method, path, options);
      if (method !== 'GET' && res.status < 300) {
        expectations.wrote(method, path.split('?')[0]!, options.body, res.body, sentAt);
        if (options.joins) await joined(options.joins, res.body, sentAt);
      }
      return res;
    },
    get: (path, query) => client.get(path, query),
    listAll,
    paginate: <T = unknown>(path: string, query?: RequestOptions['query']): AsyncIterable<T> =>
      plain(query)
        ? (async function* () {
            yield* await listAll<T>(path);
          })()
        : client.paginate<T>(path, query),
    listLag: () => expectations.lagMs(),
    superseded: (id) => expectations.forget(id),
    close: () => client.close(),
  };
  if (client.background) {
    const background = client.background.bind(client);
    let view: ApiClient | undefined;
    wrapped.background = () => (view ??= expecting(background(), expectations, now));
  }
  if (client.rateLimit) wrapped.rateLimit = client.rateLimit.bind(client);
  return wrapped;
}

/** A JSON pointer (RFC 6901) into a value. */
function pointer(value: unknown, at: string): unknown {
  let v = value;
  for (const raw of at.split('/').slice(1)) {
    if (!isRecord(v) && !Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}
