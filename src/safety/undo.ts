/**
 * `docops undo JOURNAL`: journal snapshots → manifest documents, through each kind's own `export`, so the
 * normal validate → plan → apply path recreates what a run deleted. Recreated objects are new objects
 * (new ids); what cannot be recreated, or only partly, is listed with the reason.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import type { KindDefinition, LiveObject } from '../core/kind.js';
import { JOURNAL_VERSION, type JournalRecord } from './journal.js';

export interface NotRecreatable {
  kind: string;
  org: string;
  key: string;
  reason: string;
}

/** A document was written for the object, but it will not come back exactly as it was. */
export interface UndoCaveat {
  kind: string;
  org: string;
  key: string;
  note: string;
}

export interface UndoResult {
  documents: object[];
  notRecreatable: NotRecreatable[];
  caveats: UndoCaveat[];
}


export async function readJournal(file: string): Promise<JournalRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read journal ${file}: ${(err as Error).message}`);
  }
  const records: JournalRecord[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new UsageError(`${file}:${i + 1}: not a JSON line; is this a docops journal?`);
    }
    if (!isRecord(value)) throw new UsageError(`${file}:${i + 1}: not a journal record`);
    if (value['v'] !== JOURNAL_VERSION) throw new UsageError(`${file}:${i + 1}: journal format ${String(value['v'])} is not supported (expected ${JOURNAL_VERSION})`);
    for (const f of ['kind', 'org', 'key', 'objectKey'] as const) {
      if (typeof value[f] !== 'string') throw new UsageError(`${file}:${i + 1}: record has no ${f}`);
    }
    if (!isRecord(value['fields'])) throw new UsageError(`${file}:${i + 1}: record has no fields`);
    records.push(value as unknown as JournalRecord);
  });
  return records;
}

export async function buildUndo(journalFile: string, kinds: readonly KindDefinition[]): Promise<UndoResult> {
  return undoRecords(await readJournal(journalFile), kinds);
}

/** Pure: records → documents, grouped by (kind, org) so each kind exports its objects together. */
export function undoRecords(records: readonly JournalRecord[], kinds: readonly KindDefinition[]): UndoResult {
  const result: UndoResult = { documents: [], notRecreatable: [], caveats: [] };
  const groups = new Map<string, Map<string, JournalRecord>>();
  for (const r of records) {
    const g = groups.get(`${r.kind}\u0000${r.org}`) ?? new Map<string, JournalRecord>();
    g.set(`${r.objectKey}\u0000${r.id ?? ''}`, r); // a step journaled twice (a retried run) counts once
    groups.set(`${r.kind}\u0000${r.org}`, g);
  }

  for (const key of [...groups.keys()].sort()) {
    const group = [...groups.get(key)!.values()];
    const { kind: kindName, org } = group[0]!;
    const skip = (reason: string): void => {
      for (const r of group) result.notRecreatable.push({ kind: kindName, org, key: r.key, reason });
    };
    const kind = kinds.find((k) => k.kind === kindName);
    if (!kind) {
      skip(`${kindName} is not a manifest kind (it is part of another kind's objects); recreate it in its parent's manifest`);
      continue;
    }
    if (!kind.export) {
      skip(`kind ${kindName} cannot export manifests`);
      continue;
    }
    const objects: LiveObject[] = group.map((r) => ({ kind: r.kind, org: r.org, key: r.objectKey, id: r.id ?? '', fields: r.fields }));
    let docs: object[];
    try {
      docs = kind.export(org, { objects });
    } catch (err) {
      skip(`export failed: ${(err as Error).message}`);
      continue;
    }
    if (docs.length === 0) {
      skip('its kind exported no document for it');
      continue;
    }
    const goneIds = new Set(group.map((r) => r.id).filter((id): id is string => id !== undefined && id !== ''));
    result.documents.push(...docs.map((d) => withoutGonePin(d, goneIds)));
    for (const r of group) {
      const notes = [kind.undoCaveat, r.snapshot === 'plan' ? 'no live snapshot was found; only the fields the plan recorded are restored' : undefined];
      for (const note of notes) if (note) result.caveats.push({ kind: kindName, org, key: r.key, note });
    }
  }
  return result;
}

/**
 * Exports pin ids (`spec.id`) so a title change keeps identity; the deleted object's id is gone for good and
 * the recreated object gets a new one, so such a pin is dropped (it would only produce a stale-pin warning).
 */
function withoutGonePin(doc: object, goneIds: ReadonlySet<string>): object {
  const copy = structuredClone(doc) as Record<string, unknown>;
  const spec = copy['spec'];
  // '' is what an export pins for a snapshot taken without an id (never a valid pin).
  if (isRecord(spec) && typeof spec['id'] === 'string' && (spec['id'] === '' || goneIds.has(spec['id']))) delete spec['id'];
  return copy;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
