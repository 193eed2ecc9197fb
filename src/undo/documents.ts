/**
 * Undo's documents as manifest files: one file per (kind, organization), written as YAML that the manifest
 * loader reads back to exactly these values (a literal `${` in user text is written `$${`, so it is never
 * taken for a variable). Undo plans from the same text it writes with `-o`, so positions in its plan point
 * into those files.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { UsageError, ValidationError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { DesiredState } from '../model/state.js';
import { escapeInterpolation } from '../manifests/interpolate.js';
import { parseYamlFile } from '../manifests/parse.js';
import { sortIssues, validateParsedFiles } from '../manifests/load.js';
import { refuseLinks, writeInside } from '../write-inside.js';

export interface UndoFile {
  /** `undo-<Kind>-<org>.yaml` */
  name: string;
  documents: object[];
}

const safeName = (s: string): string => s.replace(/[^A-Za-z0-9_.-]+/g, '_');

/** Documents grouped into files, one per (kind, organization), in document order. */
export function undoFiles(docs: readonly object[]): UndoFile[] {
  const files = new Map<string, object[]>();
  for (const d of docs) {
    const rec = d as { kind?: unknown; metadata?: { organization?: unknown } };
    const name = `undo-${safeName(String(rec.kind ?? 'document'))}-${safeName(String(rec.metadata?.organization ?? 'org'))}.yaml`;
    files.set(name, [...(files.get(name) ?? []), d]);
  }
  return [...files].map(([name, documents]) => ({ name, documents }));
}

export function filesYaml(header: string, docs: readonly object[]): string {
  return header + docs.map((d) => stringify(escapeInterpolation(d), { lineWidth: 0 })).join('---\n');
}

/**
 * The files as desired state, checked like manifests (schema, identity, per-document rules) except for the
 * rules across documents: undo's documents are a fragment of the organization's manifests (a recreated team
 * names members that only the user's own Members documents list).
 */
export function desiredFromFiles(
  files: readonly UndoFile[],
  kinds: readonly KindDefinition[],
  header = '',
): DesiredState {
  // Undo's own text, not a file anyone wrote: no manifest size limit (a journaled spec's text may be far larger).
  const parsed = files.map((f) =>
    parseYamlFile(f.name, filesYaml(header, f.documents), { maxFileBytes: Number.POSITIVE_INFINITY }),
  );
  const local = kinds.map(({ crossValidate: _cross, ...k }): KindDefinition => k);
  const { desired, issues } = validateParsedFiles(parsed, local);
  if (issues.length > 0) throw new ValidationError(sortIssues(issues));
  return desired;
}

/** Write the files into `dir` (created if missing), never over an existing file. Returns the paths written. */
export async function writeUndoFiles(dir: string, files: readonly UndoFile[], header: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const targets = files.map((f) => path.join(dir, f.name));
  await refuseLinks(dir, targets); // never through a link out of -o (src/write-inside.ts)
  const written: string[] = [];
  for (const [i, f] of files.entries()) {
    const file = targets[i]!;
    try {
      await writeInside(dir, file, filesYaml(header, f.documents), { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new UsageError(`${file} already exists; choose another -o directory`);
      throw err;
    }
    written.push(file);
  }
  return written;
}
