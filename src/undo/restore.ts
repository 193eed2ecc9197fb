/**
 * Which journaled objects the API can bring back as they were (a soft-deleted space within its retention):
 * each kind's `undo.restore` reads the object now. The rest is recreated from documents. Offline (no API),
 * objects of kinds that can restore are assumed restorable: only `docops undo --apply` restores, and it checks.
 */
import type { ApiClient } from '../model/api-client.js';
import { createFetchContext } from '../engine/fetch-context.js';
import type { KindDefinition, LiveObject, RestorePlan, UndoFate } from '../model/kind.js';
import { objectId, type UndoInput } from '../safety/undo.js';

export interface RestoreItem {
  kind: KindDefinition;
  object: LiveObject;
  restore: RestorePlan;
}

export interface RestoreChecks {
  /** Objects of kinds that can restore, by objectId(): restore, live (back already) or recreate (with the reason). */
  fates: Map<string, UndoFate>;
  restores: RestoreItem[];
  /** What a restore does not bring back, by objectId(). */
  losses: Map<string, string[]>;
}

const restorable = (
  input: UndoInput,
): { kind: KindDefinition; object: LiveObject; part: UndoInput['parts'][number] }[] =>
  input.parts.flatMap((p) =>
    p.kind.undo?.restore
      ? p.state.objects.filter((o) => o.id !== '').map((object) => ({ kind: p.kind, object, part: p }))
      : [],
  );

export async function checkRestores(client: ApiClient, input: UndoInput, now: Date): Promise<RestoreChecks> {
  const ctx = createFetchContext(client, () => false);
  const out: RestoreChecks = { fates: new Map(), restores: [], losses: new Map() };
  const items = restorable(input);
  const checks = await Promise.all(
    items.map(({ kind, object, part }) => kind.undo!.restore!(ctx, object, part.state, now)),
  );
  items.forEach(({ kind, object }, i) => {
    const check = checks[i]!;
    const id = objectId(kind.kind, object.org, object.id);
    if (check.state === 'restorable') {
      out.fates.set(id, { state: 'restore' });
      out.restores.push({ kind, object, restore: check.restore });
      if (check.losses && check.losses.length > 0) out.losses.set(id, check.losses);
    } else if (check.state === 'live') out.fates.set(id, { state: 'live' });
    else out.fates.set(id, { state: 'recreate', reason: check.reason });
  });
  return out;
}

/** Offline: restorable kinds keep their ids in the documents; whether the API still can is checked by --apply. */
export function assumeRestores(input: UndoInput): Map<string, UndoFate> {
  return new Map(
    restorable(input).map(({ kind, object }) => [
      objectId(kind.kind, object.org, object.id),
      { state: 'restore' } as const,
    ]),
  );
}
