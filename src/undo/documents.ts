/**
 * Undo's documents as manifest files: one file per (kind, organization), written as YAML that the manifest
 * loader reads back to exactly these values (a literal `${` in user text is written `$${`, so it is never
 * taken for a variable). Undo plans from the same text it writes with `-o`, so positions in its plan point
 * into those files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, ValidationError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { DesiredState } from '../model/state.js';
import { escapeInterpolation } from '../manifests/interpolate.js';
import { parseYamlFile } from '../manifests/parse.js';
import { sortIssues, validateParsedFiles } from '../manifests/load.js';
import { valueAt } from '../manifests/paths.js';
import { describeSetAside, renderWithNotes, setAsideFields, setAsideInDocument } from '../manifests/unknown-values.js';
import type { UndoResult } from '../safety/undo.js';

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
  return header + docs.map((d) => renderWithNotes(escapeInterpolation(d), { lineWidth: 0 })).join('---\n');
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
  const written: string[] = [];
  for (const f of files) {
    const file = path.join(dir, f.name);
    try {
      await writeFile(file, filesYaml(header, f.documents), { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new UsageError(`${file} already exists; choose another -o directory`);
      throw err;
    }
    written.push(file);
  }
  return written;
}

/**
 * Values a journal kept that docops does not know (a newer API's role, visibility …): a document cannot write them
 * (its schema refuses them), so each is left out of undo's documents — the object comes back without it, as a
 * loss of that object — and the written file says so where it was.
 */
export function withoutUnknownValues(result: UndoResult, kinds: readonly KindDefinition[]): UndoResult {
  const schemas = new Map(kinds.map((k) => [k.kind, k.schema]));
  const objects = result.objects.map((o) => ({ ...o, losses: [...o.losses] }));
  const documents = result.documents.map((d) => {
    const rec = d as { kind?: unknown; metadata?: { organization?: unknown } };
    const schema = schemas.get(String(rec.kind));
    const out = schema ? setAsideInDocument(d, schema) : d;
    if (out === d) return d;
    const mine = objects.filter((o) => o.kind === rec.kind && o.org === rec.metadata?.organization);
    for (const { parent, key, aside } of setAsideFields(out)) {
      // The object the field is of: the one whose key or id the path to it names (a member's e-mail, a title).
      const named = new Set<string>();
      for (let n = 0; n <= parent.length; n++) {
        const node = valueAt(out, parent.slice(0, n));
        if (node !== null && typeof node === 'object')
          for (const v of Object.values(node)) if (typeof v === 'string') named.add(v.toLowerCase());
      }
      const target =
        mine.find((o) => named.has(o.key.toLowerCase()) || (o.id !== undefined && named.has(o.id))) ?? mine[0];
      target?.losses.push(
        `${key} is not restored: docops does not know ${describeSetAside(key, aside)} (from a newer API); set it again in the app`,
      );
    }
    return out;
  });
  return { documents, objects };
}
