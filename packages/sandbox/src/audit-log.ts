/**
 * The sandbox's audit log: an event for every change any client's write makes (status < 300), in the official
 * `AuditEvent` shape, served by `GET /orgs/{id}/audit-events` (routes/audit-events.ts). The events come from the
 * store, not from the route: every row a write puts or deletes — the one it addresses and every one its cascade
 * takes along (a member leaving takes their team memberships and content grants) — is turned into an event on the
 * object it belongs to (audit-objects.ts), one per object, part and verb per write. The actor is the caller;
 * the target the object as src/audit/targets.ts derives it from a path, so docops matches and follows them.
 *
 * Kept in memory beside the store — not in state files, not in /_sandbox/state — and bounded (the oldest events go
 * first, as the real API's retention drops them). Tests make the log misbehave as the real one may (`faults`):
 * withhold it (403, as for an organization without an Enterprise plan), serve it out of order, or drop old events.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { auditedObject, lookupIn, type AuditedObject } from './audit-objects.js';
import type { SandboxStore } from './store.js';

export interface AuditRecord {
  id: string;
  orgId: string;
  occurredAt: string;
  action: string;
  actor: { type: 'user'; id: string; label?: string };
  source: 'api';
  target: { type: string; id: string; label?: string };
}

export const AUDIT_LOG_MAX = 10_000;

/** How the log misbehaves (tests): each as the real API might. */
export interface AuditFaults {
  /** Organizations whose events are withheld: answered 403, as without an Enterprise plan. */
  withheld?: ReadonlySet<string>;
  /** Serve each page's events in a shuffled order instead of newest first. */
  reorder?: boolean;
}

export class AuditLog {
  private readonly events: AuditRecord[] = [];
  /** When each event becomes visible (ms), under `auditDelay`; absent: at once. */
  private readonly visibleAt = new WeakMap<AuditRecord, number>();
  private delayOf: (() => number) | undefined;
  faults: AuditFaults = {};
  constructor(private max = AUDIT_LOG_MAX) {}

  add(e: AuditRecord): void {
    this.events.push(e);
    if (this.delayOf) this.visibleAt.set(e, Date.parse(e.occurredAt) + this.delayOf());
    if (this.events.length > this.max) this.events.splice(0, this.events.length - this.max);
  }

  /**
   * The `auditDelay` habit (faults.ts): from now on each event becomes visible this long after its change (each
   * drawn in turn, so out of order across changes); it still carries the time of the change. Undefined: at once.
   */
  delay(delayOf: (() => number) | undefined): void {
    this.delayOf = delayOf;
  }

  /** Events of one organization, newest first (all of them, visible or not). */
  of(orgId: string): AuditRecord[] {
    return this.events.filter((e) => e.orgId === orgId).reverse();
  }

  /** The events of one organization a reader sees at `now` (ms), newest first by the time of their change. */
  visible(orgId: string, now: number): AuditRecord[] {
    return this.of(orgId).filter((e) => (this.visibleAt.get(e) ?? 0) <= now);
  }

  /** Keep only the newest `n` events (what a retention that expired the rest would leave). */
  keepNewest(n: number): void {
    if (this.events.length > n) this.events.splice(0, this.events.length - n);
  }

  get size(): number {
    return this.events.length;
  }
}

interface RowChange {
  table: string;
  /** The row before the write's first change of it (undefined: the write created it). */
  before: { id: string } | undefined;
  after: { id: string } | undefined;
}

/** The rows one write changes, by table and id; a row changed twice keeps its first `before` and last `after`. */
type Changes = Map<string, RowChange>;

const current = new AsyncLocalStorage<Changes>();

/** Collect the store's changes made by `run` (also across its awaits: handlers may await before they write). */
export function watchStore(store: SandboxStore): void {
  store.onChange((table, before, after) => {
    const changes = current.getStore();
    if (!changes) return;
    const key = `${table}\u0000${(before ?? after)!.id}`;
    const known = changes.get(key);
    if (known) known.after = after;
    else changes.set(key, { table, before, after });
  });
}

export async function recordingChanges<T>(run: () => Promise<T>): Promise<{ result: T; changes: Changes }> {
  const changes: Changes = new Map();
  const result = await current.run(changes, run);
  return { result, changes };
}

type Verb = 'created' | 'updated' | 'deleted' | 'restored';

/** The events of one successful write: one per organization, object, part and verb, in the order the rows changed. */
export function eventsFor(store: SandboxStore, changes: Changes, userId: string, now: Date): AuditRecord[] {
  const before = new Map<string, { id: string }>();
  for (const [key, c] of changes) if (c.before) before.set(key, c.before);
  const find = lookupIn(store, before);
  const out = new Map<string, AuditRecord>();
  const user = store.table<{ id: string; email: string }>('users').get(userId);
  const add = (o: AuditedObject, verb: Verb): void => {
    const action = `${o.type}.${o.part !== undefined ? `${o.part}.` : ''}${verb}`;
    const key = `${o.orgId}\u0000${o.type}\u0000${o.id}\u0000${action}`;
    if (out.has(key)) return;
    out.set(key, {
      id: randomUUID(),
      orgId: o.orgId,
      occurredAt: now.toISOString(),
      action,
      actor: { type: 'user', id: userId, ...(user ? { label: user.email } : {}) },
      source: 'api',
      target: { type: o.type, id: o.id, ...(o.label !== undefined ? { label: o.label } : {}) },
    });
  };
  for (const c of changes.values()) {
    const was = c.before ? auditedObject(c.table, c.before, find) : undefined;
    const is = c.after ? auditedObject(c.table, c.after, find) : undefined;
    if (was && is && (was.orgId !== is.orgId || was.id !== is.id)) {
      // Moved to another organization (a transfer), or re-keyed: gone from one, new in the other.
      add(was, 'deleted');
      add(is, 'created');
    } else if (was && is) add(is, verbOf(was, is));
    else if (is) add(is, is.binned ? 'deleted' : 'created');
    else if (was && !was.binned) add(was, 'deleted');
  }
  // An object created or deleted by this write takes its parts along: one event says it.
  const whole = new Set(
    [...out.values()]
      .filter((e) => /\.(created|deleted)$/.test(e.action) && e.action.split('.').length === 2)
      .map(objectKey),
  );
  return [...out.values()].filter((e) => e.action.split('.').length === 2 || !whole.has(objectKey(e)));
}

const objectKey = (e: AuditRecord): string => `${e.orgId}\u0000${e.target.type}\u0000${e.target.id}`;

/** A change of an existing row: a space put in or taken out of the bin is deleted or restored, anything else updated. */
function verbOf(was: AuditedObject, is: AuditedObject): Verb {
  if (is.part === undefined && was.binned !== is.binned) return is.binned ? 'deleted' : 'restored';
  return 'updated';
}
