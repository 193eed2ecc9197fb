/**
 * From changes to stale reads: an audit event (or a write docops sent itself) → the kind that claims its target
 * type → the reads it made stale (KindDefinition.informer). Undefined when nobody can tell: the caller treats it
 * as a gap (a full read of the organization).
 */
import { pathTarget } from '../../audit/targets.js';
import type { AuditChange, InformerView, KindDefinition, StaleRead } from '../../model/kind.js';
import type { Plan } from '../../model/plan.js';
import { resolveRequest } from '../../model/refs.js';
import type { ApplyReport } from '../../model/apply-report.js';

export class ChangeMap {
  private readonly byType = new Map<string, KindDefinition>();

  constructor(kinds: readonly KindDefinition[]) {
    for (const k of kinds) for (const t of k.informer?.targets ?? []) this.byType.set(t, k);
  }

  /** Whether every registered kind says how to follow it (otherwise the informer cannot be used). */
  static complete(kinds: readonly KindDefinition[]): boolean {
    return kinds.every((k) => k.informer !== undefined);
  }

  stale(change: AuditChange, org: string, view: InformerView): StaleRead[] | undefined {
    return this.byType.get(change.type)?.informer?.stale(change, org, view);
  }
}

/** One request docops itself sent while applying, with the organization of its step. */
export interface OwnWrite {
  org: string;
  method: string;
  /** The path as sent (refs resolved), without query. */
  path: string;
  /** The id a create captured (`capture: {id}`), when its path is the collection. */
  createdId?: string;
  /** The step succeeded: the server did what it asked (its audit event, when it comes, is docops's own). */
  applied: boolean;
}

/** The requests of every step apply attempted (applied or failed; skipped steps sent nothing). */
export function ownWrites(plan: Plan, report: ApplyReport): OwnWrite[] {
  const applied = new Set(report.applied);
  const attempted = new Set([...report.applied, ...report.failed.map((f) => f.stepId)]);
  const out: OwnWrite[] = [];
  for (const step of plan.steps) {
    if (!attempted.has(step.id)) continue;
    const outputs = report.outputs[step.id] ?? {};
    for (const req of step.requests) {
      let path: string;
      try {
        path = resolveRequest(req, (stepId, output) => {
          const v = stepId === step.id ? outputs[output] : report.outputs[stepId]?.[output];
          if (v === undefined) throw new Error('unresolved');
          return v;
        }).path;
      } catch {
        continue; // a ref its create never made: the request was not sent
      }
      const createdId = pathTarget(path)?.id === undefined ? outputs['id'] : undefined;
      out.push({
        org: step.org,
        method: req.method,
        path: path.split('?')[0]!,
        ...(createdId !== undefined ? { createdId } : {}),
        applied: applied.has(step.id),
      });
    }
  }
  return out;
}

/** Parts of a path that are verbs on the object (`/spaces/s/move`), not parts of it. */
const VERB_PARTS: ReadonlySet<string> = new Set(['move', 'restore', 'transfer', 'sso', 'sort']);

/**
 * The change a write of docops's own made, as an event would say it: `{type}.{part}.{verb}`; a create in a
 * collection (its path names no id) is the list it joins, read again.
 */
export function changeOfWrite(
  w: OwnWrite,
): { change: AuditChange; fallback: AuditChange } | { list: string } | undefined {
  const t = pathTarget(w.path);
  if (!t) return undefined;
  if (t.id === undefined) return { list: w.path };
  const part = t.part[0] !== undefined && !VERB_PARTS.has(t.part[0]) ? t.part[0] : '';
  const verb = w.method === 'DELETE' ? 'deleted' : 'updated';
  const action = `${t.type}.${part !== '' ? `${part}.` : ''}${verb}`;
  // A part the kind does not know (a verb, a setting below the object) is read as an update of the object.
  return {
    change: { type: t.type, id: t.id, action },
    fallback: { type: t.type, id: t.id, action: `${t.type}.updated` },
  };
}
