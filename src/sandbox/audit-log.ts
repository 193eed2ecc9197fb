/**
 * The sandbox's audit log: one event per write it accepts (status < 300), in the official `AuditEvent` shape,
 * served by `GET /orgs/{id}/audit-events` (routes/audit-events.ts). The actor is the token's user; the target is
 * derived from the route (src/audit/targets.ts, the same derivation docops matches with). Kept in memory beside
 * the store — not in state files, not in /_sandbox/state — and bounded (the oldest events go first, as the real
 * API's retention drops them).
 */
import { randomUUID } from 'node:crypto';
import { pathTarget } from '../audit/targets.js';
import { collections, memberKey, members, spaces, teams, users } from './records.js';
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

export class AuditLog {
  private readonly events: AuditRecord[] = [];
  constructor(private readonly max = AUDIT_LOG_MAX) {}

  add(e: AuditRecord): void {
    this.events.push(e);
    if (this.events.length > this.max) this.events.splice(0, this.events.length - this.max);
  }

  /** Events of one organization, newest first. */
  of(orgId: string): AuditRecord[] {
    return this.events.filter((e) => e.orgId === orgId).reverse();
  }

  get size(): number {
    return this.events.length;
  }
}

/** What a write is about, read before its handler runs (a delete removes the record that has the label). */
export interface PendingWrite {
  orgId: string;
  method: string;
  path: string;
  label?: string;
}

/** The organization and label of a write, from its route parameters and the store as it is before the write. */
export function beforeWrite(store: SandboxStore, method: string, path: string, params: Record<string, string>): PendingWrite | undefined {
  const orgId = params.organizationId ?? orgOfTopLevel(store, params);
  if (orgId === undefined) return undefined;
  const target = pathTarget(path);
  const label = target?.id !== undefined ? labelOf(store, orgId, target.type, target.id) : undefined;
  return { orgId, method, path, ...(label !== undefined ? { label } : {}) };
}

function orgOfTopLevel(store: SandboxStore, params: Record<string, string>): string | undefined {
  if (params.spaceId !== undefined) return spaces(store).get(params.spaceId)?.orgId;
  if (params.collectionId !== undefined) return collections(store).get(params.collectionId)?.orgId;
  return undefined;
}

/** A display label for the kinds whose names people search for (e-mail, title). */
function labelOf(store: SandboxStore, orgId: string, type: string, id: string): string | undefined {
  switch (type) {
    case 'member':
    case 'team.member':
      return members(store).has(memberKey(orgId, id)) ? users(store).get(id)?.email : undefined;
    case 'team':
      return teams(store).get(id)?.title;
    case 'space':
      return spaces(store).get(id)?.title;
    case 'collection':
      return collections(store).get(id)?.title;
    default:
      return undefined;
  }
}

const VERB: Record<string, string> = { PATCH: 'updated', PUT: 'updated', DELETE: 'deleted', POST: 'updated' };

/** The event for a write that succeeded. `body` is the answer (a create names the id it made). */
export function auditEventFor(store: SandboxStore, w: PendingWrite, userId: string, status: number, body: unknown, now: Date): AuditRecord | undefined {
  const t = pathTarget(w.path);
  if (!t) return undefined;
  // 204 on a delete means "was not there" (except teams, which always answer 204): an event only for what existed.
  if (w.method === 'DELETE' && status === 204 && w.label === undefined) return undefined;
  const answered = isRecord(body) ? body : {};
  let target: { type: string; id: string; label?: string };
  let action: string;
  if (t.id !== undefined) {
    target = { type: t.type, id: t.id };
    action = `${t.type}.${VERB[w.method] ?? 'updated'}`;
  } else if (status === 201 && typeof answered.id === 'string') {
    target = { type: t.type, id: answered.id };
    action = `${t.type}.created`;
  } else if (t.parent) {
    target = { ...t.parent };
    action = `${t.parent.type}.${t.trailing ?? 'updated'}`;
  } else return undefined;
  const label = w.label ?? labelFromAnswer(answered) ?? labelOf(store, w.orgId, target.type, target.id);
  if (label !== undefined) target.label = label;
  const user = users(store).get(userId);
  return {
    id: randomUUID(),
    orgId: w.orgId,
    occurredAt: now.toISOString(),
    action,
    actor: { type: 'user', id: userId, ...(user ? { label: user.email } : {}) },
    source: 'api',
    target,
  };
}

function labelFromAnswer(body: Record<string, unknown>): string | undefined {
  if (typeof body.title === 'string') return body.title;
  if (isRecord(body.user) && typeof body.user.email === 'string') return body.user.email;
  return undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
