/**
 * `docops undo` reads the delete journal back (src/safety/journal.ts writes it): one JSON line per record, each
 * read with schemas/journal.schema.json's validator — a journal is a file a person may have edited or cut, and a
 * malformed line is a UsageError naming its line and what is wrong, never a TypeError later in undo. A record keeps
 * the members the schema names; others are ignored.
 */
import { readFile } from 'node:fs/promises';
import type { ErrorObject } from 'ajv';
import { UsageError } from '../model/errors.js';
import { journalSchema, type SchemaNode } from '../model/format-schemas.js';
import type { JournalRecord } from '../model/generated/journal.js';
import { compileSchema } from '../manifests/schema.js';
import { isRecord } from '../model/json.js';

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
  const schema = journalSchema();
  const members = Object.keys(schema.properties ?? {});
  const known = isRecord(value)
    ? Object.fromEntries(members.filter((m) => value[m] !== undefined).map((m) => [m, value[m]]))
    : value;
  const validate = compileSchema(schema);
  if (validate(known)) return known as JournalRecord;
  throw new UsageError(`${at}: ${recordProblem(schema, validate.errors ?? [], known)}`);
}

/**
 * What is wrong with a record, member by member: `record has no phase (create | update | delete | prune)` for a
 * member every record has, `record has a malformed id` for one it may have; a format undo does not read is said
 * alone.
 */
function recordProblem(schema: SchemaNode, errors: readonly ErrorObject[], value: unknown): string {
  if (!isRecord(value)) return 'not a journal record';
  // The record's member each error is in: the one it names at the record itself, else the first its path goes into.
  const members = new Set(
    errors.map((e) => e.instancePath.split('/')[1] ?? (e.params as { missingProperty?: string }).missingProperty),
  );
  const versions = schema.properties!['v']!.enum!;
  if (members.has('v'))
    return `journal format ${String(value['v'])} is not supported (expected one of ${versions.join(', ')})`;
  const said = Object.keys(schema.properties!)
    .filter((m) => members.has(m))
    .map((m) => {
      const node = schema.properties![m]!;
      if (!schema.required?.includes(m)) return `a malformed ${m}${node.type === 'array' ? ' list' : ''}`;
      return `no ${m}${node.enum ? ` (${node.enum.join(' | ')})` : ''}`;
    });
  return `record has ${said.join(', ')}`;
}
