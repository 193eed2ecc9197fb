/**
 * `docops undo` reads the delete journal back (journal.ts writes it): one JSON line per record, each checked field
 * by field and built as a JournalRecord from what was checked — a journal is a file a person may have edited or
 * cut, and a malformed line is a UsageError naming its line, never a TypeError later in undo.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../model/errors.js';
import type { LiveKindState, LiveObject, Snapshot } from '../model/kind.js';
import { PHASES, type Action } from '../model/plan.js';
import { JOURNAL_VERSIONS, type JournalRecord } from './journal.js';
import { isRecord } from '../model/json.js';

const ACTIONS: readonly Action[] = ['create', 'update', 'delete'];
const SNAPSHOTS: readonly JournalRecord['snapshot'][] = ['complete', 'live', 'plan'];

const oneOf = <T>(v: unknown, allowed: readonly T[]): v is T => (allowed as readonly unknown[]).includes(v);

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
    records.push(journalRecord(value, `${file}:${i + 1}`));
  });
  return records;
}

/** One line's record, or a UsageError at `at` naming what is wrong with it. */
function journalRecord(value: unknown, at: string): JournalRecord {
  if (!isRecord(value)) throw new UsageError(`${at}: not a journal record`);
  const v = value['v'];
  if (!oneOf(v, JOURNAL_VERSIONS)) {
    throw new UsageError(
      `${at}: journal format ${String(v)} is not supported (expected one of ${JOURNAL_VERSIONS.join(', ')})`,
    );
  }
  const text = (f: string): string => {
    const x = value[f];
    if (typeof x !== 'string') throw new UsageError(`${at}: record has no ${f}`);
    return x;
  };
  const kind = text('kind');
  const org = text('org');
  const key = text('key');
  const objectKey = text('objectKey');
  const fields = value['fields'];
  if (!isRecord(fields)) throw new UsageError(`${at}: record has no fields`);
  const state = value['state'];
  if (state !== undefined && !isSnapshot(state)) throw new UsageError(`${at}: record has a malformed state`);
  const { phase, action, snapshot, id, redacted } = value;
  if (!oneOf(phase, PHASES)) throw new UsageError(`${at}: record has no phase (${PHASES.join(' | ')})`);
  if (!oneOf(action, ACTIONS)) throw new UsageError(`${at}: record has no action (${ACTIONS.join(' | ')})`);
  if (!oneOf(snapshot, SNAPSHOTS)) throw new UsageError(`${at}: record has no snapshot (${SNAPSHOTS.join(' | ')})`);
  if (id !== undefined && typeof id !== 'string') throw new UsageError(`${at}: record has a malformed id`);
  if (redacted !== undefined && !(Array.isArray(redacted) && redacted.every((p) => typeof p === 'string')))
    throw new UsageError(`${at}: record has a malformed redacted list`);
  return {
    v,
    time: text('time'),
    stepId: text('stepId'),
    phase,
    action,
    kind,
    org,
    key,
    objectKey,
    ...(id !== undefined ? { id } : {}),
    fields,
    snapshot,
    ...(state !== undefined ? { state } : {}),
    ...(redacted !== undefined ? { redacted } : {}),
  };
}

function isLiveObject(o: unknown): o is LiveObject {
  return (
    isRecord(o) &&
    ['kind', 'org', 'key', 'id'].every((k) => typeof o[k] === 'string') &&
    isRecord(o['fields']) &&
    (o['parent'] === undefined || isRecord(o['parent']))
  );
}

function isKindState(s: unknown): s is LiveKindState {
  return (
    isRecord(s) &&
    Array.isArray(s['objects']) &&
    s['objects'].every(isLiveObject) &&
    (s['related'] === undefined || (Array.isArray(s['related']) && s['related'].every(isLiveObject)))
  );
}

/** A `complete` record's live states by manifest kind, as the kinds' export reads them. */
function isSnapshot(v: unknown): v is Snapshot {
  return isRecord(v) && Object.values(v).every(isKindState);
}
