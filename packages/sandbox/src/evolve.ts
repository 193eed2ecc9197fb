/**
 * The `evolve=P` habit (faults.ts): the organization as a newer version of the API answers it. With probability P
 * per object (habitChance, fixed by the seed and the object's table and id), the object carries fields docops does
 * not know and, where the spec has an enum for one of its fields, a value outside it (evolve-habits.ts says which).
 *
 * Coherent, as a newer API would be:
 * - The enum value is the object's: it is planted in the stored row, so every answer shows it until someone writes
 *   the field.
 * - The unknown fields are kept in the store beside the row (table `evolved`, one record per object) and answered
 *   wherever the object is (a list, a GET, nested in another answer: by its `object` and `id`; a site's
 *   customization, which has neither, on a GET of its path).
 * - A body that writes the object may send them back (a read-modify-write): the sandbox's strict validators do not
 *   see them (they are taken out before, and the enum value stands in as a known one), and the write keeps what it
 *   sent; a PUT that replaces the object (the customization) without one of them drops it, as a replace does.
 *   The answer of such a write is what a GET answers after it.
 *
 * Objects that exist when the habit is set are evolved then (fields and enum value); objects created while it is set
 * get the fields only (their creator wrote their values). Turning the habit off evolves nothing more and takes
 * nothing back: the world stays as it became. With nothing evolved the pipeline is unchanged.
 */
import type { RequestContext } from './context.js';
import { defaultCustomization } from './customization.js';
import { CUSTOMIZATION_ENUM, CUSTOMIZATION_FIELDS, HABITS, type EvolvedEnum, type Habit } from './evolve-habits.js';
import { habitChance, type FaultSpec } from './faults.js';
import type { Reply } from './http.js';
import type { Router } from './router.js';
import type { SandboxStore, Table } from './store.js';
import { isPlainObject } from './validate.js';

type Row = { id: string } & Record<string, unknown>;

/** One evolved object, as the store keeps it beside the object's row. */
export interface EvolvedRec {
  /** `${object}:${id}` for an object answered with an identity; else `${table}:${rowId}`. */
  id: string;
  /** The row whose deletion ends the record (a site's, for its customization). */
  owner: { table: string; rowId: string };
  /** The API path of the object (GET, PATCH, PUT). */
  path: string;
  /** Answered on a GET of `path` (the object has no `object`/`id`); a PUT there replaces it. */
  byPath?: true;
  /** Pointer → value: the unknown fields the object has now. */
  fields: Record<string, unknown>;
  /** The enum value planted, and in which row. */
  enum?: EvolvedEnum & { table: string; rowId: string };
  /** What was planted, never changed afterwards: what a test checks survived. */
  planted: { fields: Record<string, unknown>; enum?: EvolvedEnum };
}

export const EVOLVED_TABLE = 'evolved';
export const evolvedRecords = (store: SandboxStore): Table<EvolvedRec> => store.table<EvolvedRec>(EVOLVED_TABLE);

/** What a write sent of an evolved object, taken out of its body before validation. */
export interface Accepted {
  body: unknown;
  /** After the write succeeded: keep what it sent; answers what a GET of the object answers now. */
  restore(ctx: RequestContext, reply: Reply): Promise<Reply>;
}

export class Evolution {
  private spec: FaultSpec | undefined;
  private index: { version: number; byObject: Map<string, EvolvedRec>; byPath: Map<string, EvolvedRec> } | undefined;

  constructor(
    private readonly store: SandboxStore,
    private readonly router: Router,
  ) {
    store.onChange((table, before, after) => {
      if (table === EVOLVED_TABLE) return;
      if (after === undefined && before !== undefined) {
        if (this.anything()) this.forget(table, before.id);
      } else if (before === undefined && after !== undefined && this.spec) this.grow(table, after as Row);
    });
  }

  /** Set (or clear) the habit; objects that exist now are evolved (each at most once). */
  configure(spec: FaultSpec | undefined): void {
    this.spec = spec?.evolve !== undefined && spec.evolve > 0 ? spec : undefined;
    if (!this.spec) return;
    for (const habit of HABITS) {
      for (const row of this.rows(habit.table)) this.plant(habit, row, true);
    }
    for (const site of this.rows('sites')) this.plantCustomization(site, true);
  }

  /** The answer with the evolved objects' unknown fields (a GET of a customization's path: its own). */
  present(method: string, path: string, reply: Reply): Reply {
    if (reply.body === undefined || !this.anything()) return reply;
    const { byObject, byPath } = this.lookup();
    let body = overlay(reply.body, byObject);
    const own = method === 'GET' ? byPath.get(path) : undefined;
    if (own?.byPath && isPlainObject(body)) body = withFields(body, own.fields);
    return body === reply.body ? reply : { ...reply, body };
  }

  /** A PATCH or PUT of an evolved object: its body without what the sandbox's validators do not know. */
  accept(method: string, path: string, raw: unknown): Accepted | undefined {
    if ((method !== 'PATCH' && method !== 'PUT') || !isPlainObject(raw) || !this.anything()) return undefined;
    const rec = this.lookup().byPath.get(path);
    if (!rec) return undefined;
    const body = structuredClone(raw);
    const sent: Record<string, unknown> = {};
    for (const at of new Set([...Object.keys(rec.fields), ...Object.keys(rec.planted.fields)])) {
      const v = getAt(body, at);
      if (v === undefined) continue;
      sent[at] = v;
      removeAt(body, at);
    }
    const sentEnum = rec.enum !== undefined && getAt(body, rec.enum.bodyAt) === rec.enum.value;
    if (sentEnum) setAt(body, rec.enum!.bodyAt, rec.enum!.standIn);
    const replaces = rec.byPath === true && method === 'PUT';
    if (Object.keys(sent).length === 0 && !sentEnum && !replaces) return undefined;
    return {
      body,
      restore: async (ctx, reply) => {
        const now = evolvedRecords(this.store).get(rec.id);
        if (now) evolvedRecords(this.store).put({ ...now, fields: replaces ? sent : { ...now.fields, ...sent } });
        const e = rec.enum;
        if (sentEnum && e) this.setRowValue(e.table, e.rowId, e.rowAt, e.value);
        return reply.body === undefined ? reply : { ...reply, body: (await this.read(ctx, path)) ?? reply.body };
      },
    };
  }

  /** Whether any object is evolved (the table is not made before one is: a store without the habit is unchanged). */
  private anything(): boolean {
    return this.store.hasTable(EVOLVED_TABLE) && evolvedRecords(this.store).size > 0;
  }

  private rows(table: string): Row[] {
    return this.store.table<Row>(table).all();
  }

  private evolves(key: string): boolean {
    return this.spec !== undefined && habitChance(this.spec, 'evolve', key) < (this.spec.evolve ?? 0);
  }

  private find = (table: string, id: string): Row | undefined => this.store.table<Row>(table).get(id);

  /** Evolve one object (when its chance says so and it is not evolved yet); `withEnum`: plant the enum value too. */
  private plant(habit: Habit, row: Row, withEnum: boolean): void {
    const key = `${habit.table}:${row.id}`;
    const presented = habit.presented?.(row);
    const id = presented ? `${presented.object}:${presented.id}` : key;
    const path = habit.path(row, this.find);
    if (path === undefined || evolvedRecords(this.store).has(id) || !this.evolves(key)) return;
    const fields = habit.fields?.(row) ?? {};
    const e = withEnum ? habit.enumValue?.(row, this.store.tokenUser) : undefined;
    if (e) this.setRowValue(habit.table, row.id, e.rowAt, e.value);
    evolvedRecords(this.store).put({
      id,
      owner: { table: habit.table, rowId: row.id },
      path,
      fields: structuredClone(fields),
      ...(e ? { enum: { ...e, table: habit.table, rowId: row.id } } : {}),
      planted: { fields: structuredClone(fields), ...(e ? { enum: e } : {}) },
    });
  }

  /** A site's customization: new members at the top and in `styling`, and a newer theme. */
  private plantCustomization(site: Row, withEnum: boolean): void {
    const key = `siteCustomizations:${site.id}`;
    const sitePath = HABITS.find((h) => h.table === 'sites')?.path(site, this.find);
    if (sitePath === undefined || evolvedRecords(this.store).has(key) || !this.evolves(key)) return;
    if (withEnum) {
      const rows = this.store.table<Row>('siteCustomizations');
      if (!rows.has(site.id))
        rows.put({ id: site.id, settings: defaultCustomization(), updatedAt: String(site['createdAt']) });
      this.setRowValue('siteCustomizations', site.id, CUSTOMIZATION_ENUM.rowAt, CUSTOMIZATION_ENUM.value);
    }
    const e = withEnum ? CUSTOMIZATION_ENUM : undefined;
    evolvedRecords(this.store).put({
      id: key,
      owner: { table: 'sites', rowId: site.id },
      path: `${sitePath}/customization`,
      byPath: true,
      fields: structuredClone(CUSTOMIZATION_FIELDS),
      ...(e ? { enum: { ...e, table: 'siteCustomizations', rowId: site.id } } : {}),
      planted: { fields: structuredClone(CUSTOMIZATION_FIELDS), ...(e ? { enum: e } : {}) },
    });
  }

  /** A row created while the habit is set: the newer API's fields, not an enum value (its creator chose that). */
  private grow(table: string, row: Row): void {
    for (const habit of HABITS) if (habit.table === table) this.plant(habit, row, false);
    if (table === 'sites') this.plantCustomization(row, false);
  }

  private forget(table: string, rowId: string): void {
    const records = evolvedRecords(this.store);
    for (const r of records.all()) if (r.owner.table === table && r.owner.rowId === rowId) records.delete(r.id);
  }

  private setRowValue(table: string, rowId: string, at: string, value: unknown): void {
    const rows = this.store.table<Row>(table);
    const row = rows.get(rowId);
    if (!row) return;
    const next = structuredClone(row);
    setAt(next, at, value);
    rows.put(next);
  }

  /** What a GET of `path` answers now (undefined: no GET there). */
  private async read(ctx: RequestContext, path: string): Promise<unknown> {
    const found = this.router.resolve('GET', path);
    if (found.kind !== 'found') return undefined;
    const reply = await found.route.handler({ ...ctx, method: 'GET', params: found.params }, undefined);
    return this.present('GET', path, reply).body;
  }

  private lookup(): { byObject: Map<string, EvolvedRec>; byPath: Map<string, EvolvedRec> } {
    const records = evolvedRecords(this.store);
    if (this.index?.version !== records.version) {
      const byObject = new Map<string, EvolvedRec>();
      const byPath = new Map<string, EvolvedRec>();
      for (const r of records.all()) {
        if (!r.byPath) byObject.set(r.id, r);
        byPath.set(r.path, r);
      }
      this.index = { version: records.version, byObject, byPath };
    }
    return this.index;
  }
}

/** `value` with the unknown fields of every evolved object in it (copied where something is added). */
function overlay(value: unknown, byObject: ReadonlyMap<string, EvolvedRec>): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => overlay(v, byObject));
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> = value;
  for (const [k, v] of Object.entries(value)) {
    const next = overlay(v, byObject);
    if (next !== v) out = { ...out, [k]: next };
  }
  const { object, id } = value;
  const rec = typeof object === 'string' && typeof id === 'string' ? byObject.get(`${object}:${id}`) : undefined;
  return rec ? withFields(out, rec.fields) : out;
}

/** A copy of `value` with `fields` (pointer → value) set where it has nothing. */
function withFields(value: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(value);
  for (const [at, v] of Object.entries(fields)) if (getAt(out, at) === undefined) setAt(out, at, structuredClone(v));
  return out;
}

const keysOf = (pointer: string): string[] => pointer.split('/').slice(1);

function getAt(root: unknown, pointer: string): unknown {
  let v = root;
  for (const k of keysOf(pointer)) v = isPlainObject(v) && Object.hasOwn(v, k) ? v[k] : undefined;
  return v;
}

function setAt(root: Record<string, unknown>, pointer: string, value: unknown): void {
  const keys = keysOf(pointer);
  let node = root;
  for (const k of keys.slice(0, -1)) {
    const next = node[k];
    node = isPlainObject(next) ? next : (node[k] = {});
  }
  node[keys[keys.length - 1]!] = value;
}

function removeAt(root: unknown, pointer: string): void {
  const keys = keysOf(pointer);
  let node = root;
  for (const k of keys.slice(0, -1)) node = isPlainObject(node) ? node[k] : undefined;
  if (isPlainObject(node)) delete node[keys[keys.length - 1]!];
}
