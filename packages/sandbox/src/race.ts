/**
 * The race habit (`race=P`, faults.ts): another actor changes an object between docops's read of it and its write
 * of it. The GitBook API has no ETag / If-Match (spec-notes.md §1.7), so no client can close the window between
 * its last read and its write; the window that matters is between a plan's read and its apply's writes (seconds
 * to days). The model, deterministic under the seed:
 *
 * - **Scheduled by a read.** docops's first read of an object (a GET of it, a GET of a list whose page holds it,
 *   or a GET of a part of it: a target's team grants) since docops last wrote it (or since the start) schedules a
 *   race with probability P, drawn from a number fixed by the seed, the object's path and how many times docops
 *   wrote it (so concurrency does not change which objects race). Objects: race-targets.ts. A write is the
 *   object's when its path is the object's or below it and no other object read lies between (a grant's PATCH
 *   writes the target's grants, not the space). After docops wrote an object, a GET of that one object is the read
 *   of a read-modify-write, right before its write: that window no client can close, so such a read schedules
 *   nothing; a list read does (a new plan's).
 * - **Lands just before docops's next request touching the object**: a request on its path or below it, or a GET
 *   of a list that held it. A re-read right before writing sees the change; a write built from the earlier read
 *   does not. It lands whatever that request's own fate (a 429, a reset).
 * - **A real change by another actor.** The actor is an existing user other than the token's: the first actor
 *   token's user (startSandbox's `actorTokens`), else an admin of the organization. It reads and writes through
 *   the API as itself (validation, handler, audit log with its name: server.ts's performRequest).
 *
 * The log (`RunningSandbox.races()`, `GET /_sandbox/races`) holds every race (object, field or item, the value
 * set, time, the reads that framed it) and every later write of docops that changed a raced value away from what
 * the actor set (`undone`): the value is read back (GET) right before and right after each docops write, so a
 * change is told whatever request made it. The log outlives fault changes; what counts as docops undoing another
 * actor's change (the plan asked for it, or not) is for the test to say from the plan.
 */
import { habitChance, type FaultSpec } from './faults.js';
import type { Reply } from './http.js';
import type { PipelineDeps } from './pipeline.js';
import { RACE_TARGETS, matchPattern, type RaceChange, type RaceTarget } from './race-targets.js';
import { members } from './records.js';
import { performRequest, requestContext } from './server.js';

export interface RaceEntry {
  /** 1, 2, … in landing order. */
  n: number;
  at: string;
  /** The object's path and what it is. */
  object: string;
  target: string;
  actor: string;
  /** docops's request whose answer scheduled it, and the one it landed before. */
  readBy: string;
  landedBefore: string;
  request: { method: string; path: string; body: unknown };
  /** The actor's answer; a race whose write was refused (≥ 300) changed nothing and is not watched. */
  status: number;
  field?: string;
  item?: string;
  /** The item's identity as requests name it. */
  key?: string;
  /** What the object showed once the actor's write was done (the watched part of its GET answer). */
  value?: unknown;
  error?: string;
}

export interface RaceUndo {
  race: number;
  /** docops's write that changed the value away from the actor's. */
  method: string;
  path: string;
  field?: string;
  item?: string;
  value: unknown;
  /** What the watched part showed after docops's write (undefined: gone). */
  now: unknown;
}

export interface RaceReport {
  races: RaceEntry[];
  undone: RaceUndo[];
}

interface Pending {
  target: RaceTarget;
  params: Record<string, string>;
  readBy: string;
  epoch: number;
  /** The parts of the object (`readBy` paths) its scheduling read has read: reading another one continues it. */
  parts: Set<string>;
}

interface Watch {
  entry: RaceEntry;
  change: RaceChange;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const below = (path: string, object: string): boolean => path === object || path.startsWith(`${object}/`);

export class RaceWorld {
  private spec: FaultSpec | undefined;
  private readonly entries: RaceEntry[] = [];
  private readonly undone: RaceUndo[] = [];
  private readonly watches: Watch[] = [];
  /** Per object path: docops's writes of it so far, and the epoch whose first read was drawn. */
  private readonly epochs = new Map<string, number>();
  private readonly drawn = new Map<string, number>();
  private readonly pending = new Map<string, Pending>();
  /** Per object path: the list paths whose answers held it. */
  private readonly lists = new Map<string, Set<string>>();

  constructor(private readonly deps: PipelineDeps) {}

  /** The fault spec in force: races are scheduled while it has `race`; pending ones are dropped on any change. */
  configure(spec: FaultSpec | undefined): void {
    this.spec = spec?.race ? spec : undefined;
    this.pending.clear();
  }

  report(): RaceReport {
    return { races: this.entries.map((e) => structuredClone(e)), undone: this.undone.map((u) => structuredClone(u)) };
  }

  /** docops's request arrives: the races due before it land (the actor's writes are done when this resolves). */
  arrive(method: string, path: string): Promise<void> | undefined {
    const due = [...this.pending].filter(([object, p]) => {
      if (method === 'GET' && p.target.readBy?.some((part) => path === object + part) && !p.parts.has(path)) {
        p.parts.add(path); // the rest of the read that scheduled it, not a re-read
        return false;
      }
      return below(path, object) || (method === 'GET' && this.lists.get(object)?.has(path) === true);
    });
    if (due.length === 0) return undefined;
    for (const [object] of due) this.pending.delete(object);
    const landedBefore = `${method} ${path}`;
    return due.reduce<Promise<void>>(
      (chain, [object, p]) => chain.then(() => this.land(object, p, landedBefore)),
      Promise.resolve(),
    );
  }

  /** docops's GET was answered: the objects it read may schedule races. */
  answered(method: string, path: string, reply: Reply): void {
    if (!this.spec || method !== 'GET' || reply.status !== 200) return;
    const readBy = `${method} ${path}`;
    // A single object (not a list page) read after docops wrote it is a read-modify-write's own read: not drawn.
    const page = Array.isArray((reply.body as { items?: unknown } | undefined)?.items);
    for (const target of RACE_TARGETS) {
      const own = matchPattern(target.object, path);
      if (own && (page || !this.epochs.has(path))) this.read(path, target, own, readBy);
      for (const suffix of target.readBy ?? []) {
        if (!path.endsWith(suffix)) continue;
        const object = path.slice(0, -suffix.length);
        const params = matchPattern(target.object, object);
        if (params) this.read(object, target, params, readBy, path);
      }
      const list = target.list && matchPattern(target.list.pattern, path);
      const items = (reply.body as { items?: unknown } | undefined)?.items;
      if (!list || !target.list || !Array.isArray(items)) continue;
      for (const item of items) {
        if (typeof item !== 'object' || item === null) continue;
        const object = target.list.item(list, item as Record<string, unknown>);
        const params = matchPattern(target.object, object);
        if (!params) continue;
        this.lists.set(object, (this.lists.get(object) ?? new Set()).add(path));
        this.read(object, target, params, readBy);
      }
    }
  }

  /**
   * Right before a write's handler runs: for docops's writes, the watched values now, and after the write what it
   * changed of them (undefined for anyone else's write, or when nothing is watched).
   */
  beforeWrite(userId: string): { after: (method: string, path: string, status: number) => void } | undefined {
    if (userId !== this.deps.store.tokenUser) return undefined;
    const live = this.watches.filter((w) => !this.undone.some((u) => u.race === w.entry.n));
    const before = live.map((w) => this.look(w));
    return {
      after: (method, path, status) => {
        if (status < 300) this.rearm(path);
        live.forEach((w, i) => {
          const now = this.look(w);
          if (!sameJson(before[i], w.entry.value) || sameJson(now, w.entry.value)) return;
          this.undone.push({
            race: w.entry.n,
            method,
            path,
            ...(w.entry.field !== undefined ? { field: w.entry.field } : {}),
            ...(w.entry.item !== undefined ? { item: w.entry.item } : {}),
            value: w.entry.value,
            now,
          });
        });
      },
    };
  }

  private read(
    object: string,
    target: RaceTarget,
    params: Record<string, string>,
    readBy: string,
    part?: string,
  ): void {
    const epoch = this.epochs.get(object) ?? 0;
    if (!this.spec || this.drawn.get(object) === epoch) return;
    this.drawn.set(object, epoch);
    if (habitChance(this.spec, 'race', `${object}\u0000${epoch}`) < (this.spec.race ?? 0))
      this.pending.set(object, { target, params, readBy, epoch, parts: new Set(part === undefined ? [] : [part]) });
  }

  /** docops wrote `path`: the object it wrote (the known one nearest above it, or it) may race again on its next read. */
  private rearm(path: string): void {
    let owner: string | undefined;
    for (const object of this.drawn.keys())
      if (below(path, object) && (owner === undefined || object.length > owner.length)) owner = object;
    if (owner !== undefined) this.epochs.set(owner, (this.epochs.get(owner) ?? 0) + 1);
  }

  private async land(object: string, p: Pending, landedBefore: string): Promise<void> {
    const spec = this.spec;
    if (!spec) return;
    const deps = this.deps;
    const actor = this.actor(p.params, object);
    const n = this.entries.length + 1;
    const key = `${object}\u0000${p.epoch}`;
    const change = p.target.change(p.params, object, {
      n,
      get: (path) => this.get(actor ?? deps.store.tokenUser, path),
      pick: (options) => options[Math.floor(habitChance(spec, 'race-pick', key) * options.length)],
    });
    if (!change || actor === undefined) return;
    const entry: RaceEntry = {
      n,
      at: deps.now().toISOString(),
      object,
      target: p.target.name,
      actor,
      readBy: p.readBy,
      landedBefore,
      request: { method: change.method, path: change.path, body: structuredClone(change.body) },
      status: 0,
      ...(change.field !== undefined ? { field: change.field } : {}),
      ...(change.item !== undefined ? { item: change.item } : {}),
      ...(change.key !== undefined ? { key: change.key } : {}),
    };
    this.entries.push(entry);
    try {
      const url = new URL(change.path, 'http://sandbox');
      const found = deps.router.resolve(change.method, url.pathname);
      if (found.kind !== 'found') throw new Error(`no route for ${change.method} ${url.pathname}`);
      entry.status = (await performRequest(deps, actor, change.method, url, found, change.body)).reply.status;
    } catch (err) {
      entry.status = (err as { status?: number }).status ?? 500;
      entry.error = (err as Error).message;
    }
    if (entry.status >= 300) return;
    entry.value = change.watch.pick(this.get(actor, change.watch.path));
    this.watches.push({ entry, change });
  }

  /** The watched part of the object now (read as the actor would). */
  private look(w: Watch): unknown {
    return w.change.watch.pick(this.get(w.entry.actor, w.change.watch.path));
  }

  /** A GET answered in-process, synchronously (undefined unless 200); nothing is recorded or faulted. */
  private get(userId: string, path: string): unknown {
    const deps = this.deps;
    const url = new URL(path, 'http://sandbox');
    const found = deps.router.resolve('GET', url.pathname);
    if (found.kind !== 'found') return undefined;
    try {
      const reply = found.route.handler(requestContext(deps, userId, 'GET', url, found.params), undefined);
      return reply instanceof Promise || reply.status !== 200 ? undefined : structuredClone(reply.body);
    } catch {
      return undefined;
    }
  }

  /** Another user than the token's: the first actor token's, else an admin of the object's organization. */
  private actor(params: Record<string, string>, object: string): string | undefined {
    const deps = this.deps;
    const mine = deps.store.tokenUser;
    const given = deps.actorTokens?.find((t) => t.userId !== mine)?.userId;
    if (given !== undefined) return given;
    const own = this.get(mine, object) as { organization?: unknown } | undefined;
    const org = params['organizationId'] ?? (typeof own?.organization === 'string' ? own.organization : undefined);
    return members(deps.store)
      .all()
      .find((m) => m.role === 'admin' && !m.disabled && m.userId !== mine && (org === undefined || m.orgId === org))
      ?.userId;
  }
}
