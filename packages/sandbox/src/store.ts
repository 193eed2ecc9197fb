/**
 * The sandbox's in-memory state: named tables of records keyed by id, in insertion order, plus id counters
 * and tombstones (ids deleted for good, so a repeated delete answers 204 rather than 404).
 *
 * The store knows nothing about resources: each resource module reaches its own table with
 * `store.table<Rec>('name')`, so new resources (sites, sections …) add tables without touching this file.
 */

export interface Snapshot {
  version: 1;
  /** The user the bearer token authenticates as. */
  tokenUser: string;
  counters: Record<string, number>;
  tombstones: string[];
  tables: Record<string, { id: string }[]>;
}

/** Told of every row a table changes: the row before (undefined: new) and after (undefined: deleted). */
export type ChangeListener = (
  table: string,
  before: { id: string } | undefined,
  after: { id: string } | undefined,
) => void;

export class Table<T extends { id: string }> {
  private readonly rows = new Map<string, T>();
  private writes = 0;

  constructor(
    private readonly name = '',
    private readonly changed: ChangeListener = () => {},
  ) {}

  /** Grows on every put, delete and clear: values derived from the rows can be cached per version. */
  get version(): number {
    return this.writes;
  }

  get size(): number {
    return this.rows.size;
  }
  get(id: string): T | undefined {
    return this.rows.get(id);
  }
  has(id: string): boolean {
    return this.rows.has(id);
  }
  /** Insert a new row (at the end) or replace an existing one in place (its position is kept). */
  put(row: T): T {
    this.writes++;
    this.changed(this.name, this.rows.get(row.id), row);
    this.rows.set(row.id, row);
    return row;
  }
  delete(id: string): boolean {
    this.writes++;
    const before = this.rows.get(id);
    if (before !== undefined) this.changed(this.name, before, undefined);
    return this.rows.delete(id);
  }
  /** All rows in insertion order. */
  all(): T[] {
    return [...this.rows.values()];
  }
  where(pred: (row: T) => boolean): T[] {
    return this.all().filter(pred);
  }
  clear(): void {
    this.writes++;
    this.rows.clear();
  }
}

export class SandboxStore {
  private readonly tables = new Map<string, Table<{ id: string }>>();
  private counters: Record<string, number> = {};
  private readonly tombstones = new Set<string>();
  private readonly listeners = new Set<ChangeListener>();
  private loading = false;
  tokenUser = '';

  table<T extends { id: string }>(name: string): Table<T> {
    let t = this.tables.get(name);
    if (!t) {
      t = new Table(name, (table, before, after) => {
        if (!this.loading) for (const l of this.listeners) l(table, before, after);
      });
      this.tables.set(name, t);
    }
    // eslint-disable-next-line no-restricted-syntax -- tables are kept by name, each made for its own record type
    return t as unknown as Table<T>;
  }

  /** Whether a table of this name was ever asked for (without creating it, as `table` does). */
  hasTable(name: string): boolean {
    return this.tables.has(name);
  }

  /** Be told of every row put or deleted (not of `load`, which replaces the whole state); returns a function that stops. */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** A fresh id `<prefix>-<n>`; deterministic for a given history, never one a table already holds. */
  nextId(prefix: string, taken: (id: string) => boolean): string {
    for (;;) {
      const n = (this.counters[prefix] ?? 0) + 1;
      this.counters[prefix] = n;
      const id = `${prefix}-${n}`;
      if (!taken(id)) return id;
    }
  }

  /** Remember that `kind` object `id` existed and was deleted. */
  bury(kind: string, id: string): void {
    this.tombstones.add(`${kind}:${id}`);
  }
  isBuried(kind: string, id: string): boolean {
    return this.tombstones.has(`${kind}:${id}`);
  }

  snapshot(): Snapshot {
    const tables: Snapshot['tables'] = {};
    for (const [name, t] of this.tables) tables[name] = structuredClone(t.all());
    return {
      version: 1,
      tokenUser: this.tokenUser,
      counters: { ...this.counters },
      tombstones: [...this.tombstones],
      tables,
    };
  }

  /** Replace everything with the snapshot's content. Throws on a malformed snapshot. */
  load(snapshot: unknown): void {
    const s = checkSnapshot(snapshot);
    this.loading = true;
    try {
      for (const t of this.tables.values()) t.clear();
      for (const [name, rows] of Object.entries(s.tables)) {
        const t = this.table(name);
        for (const row of rows) t.put(structuredClone(row));
      }
    } finally {
      this.loading = false;
    }
    this.counters = { ...s.counters };
    this.tombstones.clear();
    for (const x of s.tombstones) this.tombstones.add(x);
    this.tokenUser = s.tokenUser;
  }
}

function checkSnapshot(v: unknown): Snapshot {
  const fail = (why: string): never => {
    throw new Error(`invalid sandbox state snapshot: ${why}`);
  };
  if (typeof v !== 'object' || v === null) return fail('not an object');
  const s = v as Partial<Snapshot>;
  if (s.version !== 1) fail('version must be 1');
  if (typeof s.tokenUser !== 'string') fail('tokenUser must be a string');
  if (typeof s.counters !== 'object' || s.counters === null) fail('counters must be an object');
  if (!Array.isArray(s.tombstones)) fail('tombstones must be an array');
  if (typeof s.tables !== 'object' || s.tables === null) fail('tables must be an object');
  for (const [name, rows] of Object.entries(s.tables ?? {})) {
    if (!Array.isArray(rows)) fail(`table ${name} must be an array`);
    for (const r of rows) if (typeof r?.id !== 'string') fail(`table ${name} has a row without a string id`);
  }
  return s as Snapshot;
}
