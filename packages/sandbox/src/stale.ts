/**
 * The `stale=DURATION` habit (faults.ts): list answers show each object as it was DURATION ago, as indexed list
 * endpoints of many platforms do — a create appears late, a delete disappears late, an update shows the old
 * values late — while a GET of one object by id is current.
 *
 * The history keeps every row change (table, row before, row after, time) while the habit is on, for as long as it
 * can matter. A list's answer is made by its own handler over a view of the store as it was then: the tables the
 * history touched since are rebuilt with those changes undone; the others are the live ones (read only). A list
 * under an object that did not exist then answers an empty page: nothing in it had been indexed yet.
 */
import type { SandboxStore } from './store.js';
import { Table } from './store.js';

interface RowChange {
  table: string;
  id: string;
  before: { id: string } | undefined;
  at: number;
}

export class StoreHistory {
  private readonly changes: RowChange[] = [];
  /**
   * A copy of every row as last put: handlers may change a row object in place before putting it, so the row
   * "before" a change is this copy, never the object the store hands over.
   */
  private readonly copies = new Map<string, { id: string }>();
  /** How far back views are asked for (ms); undefined: the habit is off and nothing is kept. */
  private keepMs: number | undefined;

  constructor(
    private readonly store: SandboxStore,
    private readonly now: () => number,
  ) {
    store.onChange((table, before, after) => {
      if (this.keepMs === undefined) return;
      const id = (before ?? after)!.id;
      const key = `${table}\u0000${id}`;
      this.changes.push({ table, id, before: this.copies.get(key), at: this.now() });
      if (after) this.copies.set(key, structuredClone(after));
      else this.copies.delete(key);
      this.forget();
    });
  }

  /** Keep what a view `ms` back needs (undefined: the habit is off). */
  lag(ms: number | undefined): void {
    if (ms !== undefined && this.keepMs === undefined) {
      const { tables } = this.store.snapshot();
      for (const [name, rows] of Object.entries(tables))
        for (const row of rows) this.copies.set(`${name}\u0000${row.id}`, row);
    }
    this.keepMs = ms;
    if (ms === undefined) {
      this.changes.length = 0;
      this.copies.clear();
    }
  }

  get lagMs(): number | undefined {
    return this.keepMs;
  }

  /** The store as it was `keepMs` ago: the live store where nothing changed since. */
  view(store: SandboxStore): SandboxStore {
    if (this.keepMs === undefined) return store;
    this.forget();
    const since = this.now() - this.keepMs;
    const recent = this.changes.filter((c) => c.at > since);
    if (recent.length === 0) return store;
    const byTable = new Map<string, RowChange[]>();
    for (const c of recent) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
    const rebuilt = new Map<string, Table<{ id: string }>>();
    const view: SandboxStore = Object.create(store) as SandboxStore;
    view.table = <T extends { id: string }>(name: string): Table<T> => {
      const undo = byTable.get(name);
      if (!undo) return store.table<T>(name);
      let t = rebuilt.get(name);
      if (!t) rebuilt.set(name, (t = undone(store.table(name).all(), undo)));
      // eslint-disable-next-line no-restricted-syntax -- a view's table holds the rows of the live one, typed as it is
      return t as unknown as Table<T>;
    };
    return view;
  }

  private forget(): void {
    if (this.keepMs === undefined) return;
    const horizon = this.now() - this.keepMs - 1_000;
    let drop = 0;
    while (drop < this.changes.length && this.changes[drop]!.at < horizon) drop++;
    if (drop > 0) this.changes.splice(0, drop);
  }
}

/** The rows with `changes` (oldest first) undone, newest first: each row back to what it was before them. */
function undone(rows: readonly { id: string }[], changes: readonly RowChange[]): Table<{ id: string }> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i]!;
    if (c.before === undefined) byId.delete(c.id);
    else byId.set(c.id, c.before);
  }
  const table = new Table<{ id: string }>();
  for (const row of byId.values()) table.put(row);
  return table;
}

/** Whether a reply body is a page of a list (`{items: [...], count}`): the answers the habit makes late. */
export function isPage(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { items?: unknown }).items) &&
    typeof (body as { count?: unknown }).count === 'number'
  );
}
