/**
 * Pure: audit events (newest first) × plan steps → the most recent event on each step's object. Which events are
 * about a step's object is the kind's `auditTargets`, or by default what the step's request paths address
 * (targets.ts): an update or delete names its object's id; a create (the object is gone) is matched on a delete
 * event of its type whose target label is the step's key.
 */
import type { KindDefinition } from '../model/kind.js';
import type { AttributedChange, Step } from '../model/plan.js';
import { pathTarget } from './targets.js';
import { isRecord } from '../model/json.js';

/** The parts of an official `AuditEvent` docops reads. */
export interface AuditEvent {
  occurredAt: string;
  action: string;
  actor: { type: string; id: string; label?: string };
  target: { type: string; id: string; label?: string };
}

/** An audit event as the API sends it: when, what, and an actor and a target that each have a type and an id. */
export function isAuditEvent(v: unknown): v is AuditEvent {
  const party = (x: unknown): boolean => isRecord(x) && typeof x['type'] === 'string' && typeof x['id'] === 'string';
  return (
    isRecord(v) &&
    typeof v['occurredAt'] === 'string' &&
    typeof v['action'] === 'string' &&
    party(v['actor']) &&
    party(v['target'])
  );
}

export interface TargetMatcher {
  type: string;
  id?: string;
  label?: string;
}

const hasRef = (path: string): boolean => path.includes('<<ref:');

/**
 * The default: the objects a step's requests address. A create whose object is the one created (its path is the
 * collection) matches the delete of an object of its type and label; a create of a part (a team's member, a site's
 * section) names the object it is part of.
 */
export function defaultTargets(step: Step): TargetMatcher[] {
  const out: TargetMatcher[] = [];
  for (const r of step.requests) {
    if (hasRef(r.path)) continue;
    const t = pathTarget(r.path);
    if (!t) continue;
    if (t.id !== undefined) out.push({ type: t.type, id: t.id });
    else if (step.action === 'create' && r.method !== 'DELETE') out.push({ type: t.type, label: step.key });
    if (step.action === 'create') break; // later requests of a create address the object it makes
  }
  return out;
}

function matches(e: AuditEvent, m: TargetMatcher): boolean {
  if (e.target.type !== m.type) return false;
  if (m.id !== undefined) return e.target.id === m.id;
  return (
    m.label !== undefined && e.action.endsWith('.deleted') && e.target.label?.toLowerCase() === m.label.toLowerCase()
  );
}

export function matchEvents(
  steps: readonly Step[],
  events: readonly AuditEvent[],
  kinds: readonly KindDefinition[],
): AttributedChange[] {
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  const out: AttributedChange[] = [];
  for (const step of steps) {
    const kind = byKind.get(step.kind);
    const targets = kind?.auditTargets ? kind.auditTargets(step) : defaultTargets(step);
    if (targets.length === 0) continue;
    const event = events.find((e) => targets.some((t) => matches(e, t)));
    if (event)
      out.push({
        step: step.id,
        actor: event.actor.label ?? event.actor.id,
        at: event.occurredAt,
        action: event.action,
      });
  }
  return out;
}
