/**
 * Undo, the offline part: journal records → the snapshot parts of every deleted object, merged per (kind, org),
 * and (given each object's fate: restored through the API, recreated, or live again) the manifest documents
 * that bring them back, through each kind's own `export`, plus, per object, exactly what does not come back.
 * Reading the API (which objects can be restored) and planning are in src/undo.
 */
import type { KindDefinition, LiveKindState, LiveObject, UndoFate, UndoRefs } from '../model/kind.js';
import type { JournalRecord } from './journal.js';

/** One journaled object and what undo does with it. */
export interface UndoObject {
  kind: string;
  org: string;
  key: string;
  id?: string;
  /** `restore`: through the API, same id; `recreate`: from its document, new id; `live`: back already; `none`: cannot come back. */
  outcome: 'restore' | 'recreate' | 'live' | 'none';
  /** Why it is recreated rather than restored, or why it cannot come back. */
  reason?: string;
  /** What does not come back, one sentence each. */
  losses: string[];
}

export interface UndoResult {
  /** Manifest documents for every object that comes back (restored ones pinned to their id). */
  documents: object[];
  objects: UndoObject[];
}

/** The merged snapshot parts of one manifest kind in one organization. */
export interface UndoPart {
  kind: KindDefinition;
  org: string;
  state: LiveKindState;
}

export interface UndoInput {
  parts: UndoPart[];
  /** Objects of kinds that are not manifest kinds (e.g. a site section pruned from a managed site). */
  loose: UndoObject[];
  /** Notes about an object's snapshot itself (partial, redacted fields), by objectId(). */
  notes: Map<string, string[]>;
}

export const objectId = (kind: string, org: string, idOrKey: string): string => `${kind}\u0000${org}\u0000${idOrKey}`;
const idOf = (o: LiveObject): string => objectId(o.kind, o.org, o.id !== '' ? o.id : `key:${o.key}`);

/** The snapshot parts a record holds: its `state`, or (format 1, or a kind without a snapshot hook) its own object. */
function partsOf(r: JournalRecord): Record<string, LiveKindState> {
  if (r.state) return r.state;
  return { [r.kind]: { objects: [{ kind: r.kind, org: r.org, key: r.objectKey, id: r.id ?? '', fields: r.fields }] } };
}

/** Notes about what a record's snapshot itself lacks. */
function recordNotes(r: JournalRecord, kind: KindDefinition | undefined): string[] {
  const out: string[] = [];
  if (r.snapshot === 'plan')
    out.push('no live snapshot was found when it was deleted: only the fields the plan recorded come back');
  else if (r.snapshot === 'live' && kind?.snapshot) {
    out.push(
      `journaled without a complete snapshot (journal format ${r.v}): only its own fields come back, not what its delete took along`,
    );
  }
  if (r.redacted && r.redacted.length > 0)
    out.push(`fields whose names look like secrets were not journaled and do not come back: ${r.redacted.join(', ')}`);
  return out;
}

/** Pure: records → snapshot parts merged per (kind, org) in registry order; objects by id, the first snapshot wins. */
export function collectParts(records: readonly JournalRecord[], kinds: readonly KindDefinition[]): UndoInput {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const parts = new Map<string, UndoPart>();
  const seen = new Set<string>();
  const loose: UndoObject[] = [];
  const notes = new Map<string, string[]>();
  for (const r of records) {
    const own = objectId(r.kind, r.org, r.id !== undefined && r.id !== '' ? r.id : `key:${r.objectKey}`);
    const n = recordNotes(r, byName.get(r.kind));
    if (n.length > 0 && !notes.has(own)) notes.set(own, n);
    for (const [kindName, state] of Object.entries(partsOf(r))) {
      const kind = byName.get(kindName);
      for (const o of state.objects) {
        const obj: LiveObject = { ...o, kind: kindName, org: r.org };
        if (seen.has(idOf(obj))) continue; // journaled twice (a retried run, or inside another's cascade)
        seen.add(idOf(obj));
        if (!kind) {
          const reason =
            looseReason(kinds, obj) ??
            `${kindName} is not a manifest kind (it is part of another kind's objects); recreate it in its parent's manifest`;
          loose.push({
            kind: kindName,
            org: r.org,
            key: kindName === r.kind ? r.key : obj.key,
            ...(obj.id !== '' ? { id: obj.id } : {}),
            outcome: 'none',
            reason,
            losses: [],
          });
          continue;
        }
        const at = `${kindName}\u0000${r.org}`;
        const part = parts.get(at) ?? { kind, org: r.org, state: { objects: [] } };
        part.state.objects.push(obj);
        // Snapshots keep aux as a JSON object (or none); only the kind knows what is inside.
        if (isRecord(state.aux))
          part.state.aux = mergeAux(isRecord(part.state.aux) ? part.state.aux : undefined, state.aux);
        parts.set(at, part);
      }
    }
  }
  const rank = new Map(kinds.map((k, i) => [k.kind, i]));
  const ordered = [...parts.values()].sort(
    (a, b) => rank.get(a.kind.kind)! - rank.get(b.kind.kind)! || (a.org < b.org ? -1 : a.org > b.org ? 1 : 0),
  );
  return { parts: ordered, loose, notes };
}

/** What the kind whose sub-object this is says about bringing it back (KindUndo.loose), if one does. */
function looseReason(kinds: readonly KindDefinition[], object: LiveObject): string | undefined {
  for (const k of kinds) {
    const reason = k.undo?.loose?.(object);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** Snapshot `aux` of one kind from several snapshots: records merge key by key (the first wins), lists as sets. */
export function mergeAux(a: Record<string, unknown> | undefined, b: Record<string, unknown>): Record<string, unknown> {
  if (!a) return structuredClone(b);
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const have = out[k];
    if (have === undefined) out[k] = v;
    else if (isRecord(have) && isRecord(v)) out[k] = { ...v, ...have };
    else if (Array.isArray(have) && Array.isArray(v)) {
      const known = new Set(have.map((x) => JSON.stringify(x)));
      out[k] = [...have, ...v.filter((x) => !known.has(JSON.stringify(x)))];
    }
  }
  return out;
}

/** How undo names journaled objects in documents, from their fates. */
export function undoRefs(input: UndoInput, fates: ReadonlyMap<string, UndoFate>): UndoRefs {
  const keys = new Map<string, string>();
  for (const p of input.parts) for (const o of p.state.objects) keys.set(idOf(o), o.key);
  return {
    fate: (kind, org, id) => fates.get(objectId(kind, org, id)),
    recreated: (kind, org, id) =>
      fates.get(objectId(kind, org, id))?.state === 'recreate' ? keys.get(objectId(kind, org, id)) : undefined,
  };
}

/**
 * Pure: the documents and the per-object outcome. `fates` holds the objects whose kind can restore (or found
 * live again); every other object is recreated. `restoreLosses` are what a restore check found missing.
 */
export function undoRecords(
  input: UndoInput,
  fates: ReadonlyMap<string, UndoFate> = new Map(),
  restoreLosses: ReadonlyMap<string, string[]> = new Map(),
): UndoResult {
  const all = new Map<string, UndoFate>(fates);
  for (const p of input.parts)
    for (const o of p.state.objects) if (!all.has(idOf(o))) all.set(idOf(o), { state: 'recreate' });
  const refs = undoRefs(input, all);
  const result: UndoResult = { documents: [], objects: [...input.loose] };

  for (const { kind, org, state } of input.parts) {
    const fateOf = (o: LiveObject): UndoFate => all.get(idOf(o))!;
    const objects = state.objects.map((o): UndoObject => {
      const fate = fateOf(o);
      const outcome: UndoObject['outcome'] = fate.state;
      const reason = fate.state === 'recreate' ? fate.reason : undefined;
      const losses = [...(input.notes.get(idOf(o)) ?? []), ...(restoreLosses.get(idOf(o)) ?? [])];
      return {
        kind: kind.kind,
        org,
        key: o.key,
        ...(o.id !== '' ? { id: o.id } : {}),
        outcome,
        ...(reason !== undefined ? { reason } : {}),
        losses,
      };
    });
    const none = (reason: string): void => {
      for (const x of objects) result.objects.push({ ...x, outcome: 'none', reason });
    };
    if (!kind.export) {
      none(`kind ${kind.kind} cannot export manifests`);
      continue;
    }
    let docs: object[];
    try {
      const relinked = kind.undo?.relink?.(org, state, refs) ?? state;
      docs = kind.undo?.documents ? kind.undo.documents(org, relinked) : kind.export(org, relinked);
    } catch (err) {
      none(`export failed: ${(err as Error).message}`);
      continue;
    }
    if (docs.length === 0) {
      none('its kind exported no document for it');
      continue;
    }
    const gone = new Set(state.objects.filter((o) => fateOf(o).state === 'recreate' && o.id !== '').map((o) => o.id));
    const unpinned = new Set<string>();
    result.documents.push(...docs.map((d) => withoutGonePin(d, gone, unpinned)));
    for (const x of objects) {
      if (x.id !== undefined && unpinned.has(x.id)) {
        x.losses.push(
          `gets a new id (it was ${x.id}): manifests, links or settings that name ${x.id} must name the new one (or the title)`,
        );
      }
    }
    for (const l of kind.undo?.losses?.(org, state, refs) ?? []) {
      const target = objects.find(
        (x) => (l.id !== undefined && x.id === l.id) || (l.id === undefined && x.key === l.key),
      );
      if (target) target.losses.push(l.message);
    }
    result.objects.push(...objects);
  }
  return result;
}

/**
 * Exports pin ids (`spec.id`) so a title change keeps identity; a recreated object gets a new id, so a pin to
 * its old one is dropped (it would only produce a stale-pin warning). Pins of restored objects stay.
 */
function withoutGonePin(doc: object, goneIds: ReadonlySet<string>, unpinned: Set<string>): object {
  const copy = structuredClone(doc) as Record<string, unknown>;
  const spec = copy['spec'];
  // '' is what an export pins for a snapshot taken without an id (never a valid pin).
  if (isRecord(spec) && typeof spec['id'] === 'string' && (spec['id'] === '' || goneIds.has(spec['id']))) {
    if (spec['id'] !== '') unpinned.add(spec['id']);
    delete spec['id'];
  }
  return copy;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
