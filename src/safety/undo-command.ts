/**
 * `docops undo JOURNAL [-o DIR]`: print (or write to DIR) the manifest documents that recreate what a run
 * deleted, and list what cannot be recreated. It never calls the API: the documents go through the normal
 * plan → review → apply path like any other manifest change.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { UsageError } from '../core/errors.js';
import type { KindDefinition } from '../core/kind.js';
import { buildUndo, type UndoResult } from './undo.js';

/** The part of the CLI's IO this command uses (src/cli/io.ts CliIO fits). */
export interface UndoIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

export const UNDO_USAGE = `Usage: docops undo JOURNAL [-o DIR]

Turn a delete journal back into manifest documents that recreate the deleted objects.
  -o, --output DIR   write one YAML file per kind and organization into DIR (default: print to stdout)
Recreated objects get new ids. Review the documents, add them to your manifests, then plan and apply.
`;

/** Returns the exit code; bad arguments or an unreadable journal throw UsageError. */
export async function undoCommand(argv: readonly string[], io: UndoIO, kinds: readonly KindDefinition[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${UNDO_USAGE}`);
  }
  if (parsed.values.help) {
    io.stdout.write(UNDO_USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new UsageError(`expected exactly one journal file\n\n${UNDO_USAGE}`);
  const journal = parsed.positionals[0]!;
  const result = await buildUndo(journal, kinds);
  const header = `# docops undo of ${path.basename(journal)}: recreates deleted objects (they get new ids)\n`;

  if (parsed.values.output === undefined) {
    if (result.documents.length > 0) io.stdout.write(header + toYaml(result.documents));
  } else {
    for (const file of await writeGroups(parsed.values.output, result.documents, header)) io.stdout.write(`wrote ${file}\n`);
  }
  io.stderr.write(summary(result));
  return 0;
}

function toYaml(docs: readonly object[]): string {
  return docs.map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

/** One file per (kind, org), never overwriting an existing file. */
async function writeGroups(dir: string, docs: readonly object[], header: string): Promise<string[]> {
  const groups = new Map<string, object[]>();
  for (const d of docs) {
    const rec = d as { kind?: unknown; metadata?: { organization?: unknown } };
    const name = `undo-${safeName(String(rec.kind ?? 'document'))}-${safeName(String(rec.metadata?.organization ?? 'org'))}.yaml`;
    groups.set(name, [...(groups.get(name) ?? []), d]);
  }
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, group] of groups) {
    const file = path.join(dir, name);
    try {
      await writeFile(file, header + toYaml(group), { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${file} already exists; choose another -o directory`);
      throw err;
    }
    written.push(file);
  }
  return written;
}

const safeName = (s: string): string => s.replace(/[^A-Za-z0-9_.-]+/g, '_');

function summary(result: UndoResult): string {
  const lines = [`${result.documents.length} document(s) to recreate deleted objects.`];
  if (result.notRecreatable.length > 0) {
    lines.push(`${result.notRecreatable.length} object(s) cannot be recreated:`);
    for (const n of result.notRecreatable) lines.push(`  - ${n.kind} ${n.key} in ${n.org}: ${n.reason}`);
  }
  if (result.caveats.length > 0) {
    lines.push('Not restored exactly:');
    for (const c of result.caveats) lines.push(`  - ${c.kind} ${c.key} in ${c.org}: ${c.note}`);
  }
  return lines.join('\n') + '\n';
}
