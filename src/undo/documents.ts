/**
 * Undo's documents as manifest files: one file per (kind, organization), written as YAML that the manifest
 * loader reads back to exactly these values (a literal `${` in user text is written `$${`, so it is never
 * taken for a variable). What export writes as a file beside the manifest (an OpenAPI spec's text, a SAML
 * certificate: a kind's `fileFields`), undo writes as a file too, named by `{file}` in the document, so the
 * written manifests load like any others (a spec may be far larger than a manifest may be). Undo plans from the
 * same text and data it writes with `-o`, so positions in its plan point into those files.
 */
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, ValidationError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { DesiredState } from '../model/state.js';
import { extractAttachments, type Attachment } from '../manifests/attachments.js';
import { resolveSpec } from '../manifests/data-files.js';
import { findFileRefs, lazySha256, type FileContent } from '../manifests/file-refs.js';
import { escapeInterpolation } from '../manifests/interpolate.js';
import { parseYamlFile, type ParsedYamlDoc } from '../manifests/parse.js';
import { sortIssues, validateParsedFiles } from '../manifests/load.js';
import { refuseLinks, writeInside } from '../write-inside.js';
import { registerSecret } from '../secrets.js';
import { valueAt } from '../manifests/paths.js';
import { describeSetAside, renderWithNotes, setAsideFields, setAsideInDocument } from '../manifests/unknown-values.js';
import type { UndoResult } from '../safety/undo.js';

export interface UndoFile {
  /** `undo-<Kind>-<org>.yaml` */
  name: string;
  /** The documents, each `{file}` of a data file in `data`. */
  documents: object[];
  /** The data files its documents name, relative to the directory of the manifest files (with `/`). */
  data: Attachment[];
}

const safeName = (s: string): string => s.replace(/[^A-Za-z0-9_.-]+/g, '_');

/**
 * Documents grouped into files, one per (kind, organization), in document order; each `{file, text}` a kind's
 * document holds at one of its `fileFields` becomes a data file beside them (two organizations' files of one name
 * get `-2`, `-3` … before the extension).
 */
export function undoFiles(docs: readonly object[], kinds: readonly KindDefinition[]): UndoFile[] {
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  const groups = new Map<string, { kind: string; documents: object[] }>();
  for (const d of docs) {
    const rec = d as { kind?: unknown; metadata?: { organization?: unknown } };
    const kind = String(rec.kind ?? 'document');
    const name = `undo-${safeName(kind)}-${safeName(String(rec.metadata?.organization ?? 'org'))}.yaml`;
    const group = groups.get(name) ?? { kind, documents: [] };
    group.documents.push(d);
    groups.set(name, group);
  }
  const used = new Set<string>();
  return [...groups].map(([name, { kind, documents }]) => {
    const def = byKind.get(kind);
    if (!def) return { name, documents, data: [] };
    const out = extractAttachments(def, documents, '');
    const data = out.attachments.map((a) => ({ ...a, path: unused(a.path, used) }));
    const renamed = new Map(
      out.attachments.flatMap((a, i) => (a.path === data[i]!.path ? [] : [[a.path, data[i]!.path] as const])),
    );
    return { name, documents: renamed.size === 0 ? out.documents : rename(def, out.documents, renamed), data };
  });
}

/** `p`, or `p` with `-2`, `-3` … before its extension when another file already has that name. */
function unused(p: string, used: Set<string>): string {
  const ext = path.posix.extname(p);
  let name = p;
  for (let n = 2; used.has(name); n++) name = `${p.slice(0, p.length - ext.length)}-${n}${ext}`;
  used.add(name);
  return name;
}

/** The documents with each `{file}` at a `fileFields` path renamed as `renamed` says. */
function rename(kind: KindDefinition, documents: readonly object[], renamed: ReadonlyMap<string, string>): object[] {
  return documents.map((doc) => {
    const spec = (doc as { spec?: unknown }).spec;
    if (typeof spec !== 'object' || spec === null) return doc;
    const copy: Record<string, unknown> = structuredClone(spec as Record<string, unknown>);
    for (const { path: at } of kind.fileFields ?? []) {
      let parent: unknown = copy;
      for (const k of at.slice(0, -1)) parent = (parent as Record<string, unknown> | undefined)?.[k];
      const leaf = at[at.length - 1]!;
      const value = (parent as Record<string, unknown> | undefined)?.[leaf] as { file?: unknown } | undefined;
      const to = typeof value?.file === 'string' ? renamed.get(path.posix.normalize(value.file)) : undefined;
      if (to !== undefined) (parent as Record<string, unknown>)[leaf] = { file: to };
    }
    return { ...doc, spec: copy };
  });
}

export function filesYaml(header: string, docs: readonly object[]): string {
  return header + docs.map((d) => renderWithNotes(escapeInterpolation(d), { lineWidth: 0 })).join('---\n');
}

/**
 * The files as desired state, checked like manifests (schema, identity, per-document rules) except for the
 * rules across documents: undo's documents are a fragment of the organization's manifests (a recreated team
 * names members that only the user's own Members documents list). Each `{file}` is read from the file's `data`,
 * as the loader reads it from the directory.
 */
export function desiredFromFiles(
  files: readonly UndoFile[],
  kinds: readonly KindDefinition[],
  header = '',
): DesiredState {
  // Undo's own text, not a file anyone wrote: no manifest size limit.
  const parsed = files.map((f) =>
    parseYamlFile(f.name, filesYaml(header, f.documents), { maxFileBytes: Number.POSITIVE_INFINITY }),
  );
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const contents = new Map<ParsedYamlDoc, Map<string, FileContent>>();
  files.forEach((f, i) => {
    const data = new Map(f.data.map((a) => [a.path, a.text]));
    for (const r of findFileRefs(parsed[i]!.documents, byName)) {
      const text = data.get(path.posix.normalize(r.written));
      if (text === undefined) continue; // not undo's: the kind reads it as a file it was not given
      // A secret field's content (a certificate) is a secret from the moment it is read, as the loader has it.
      if (r.mark === 'credential' || r.mark === 'payload') registerSecret(text, r.mark);
      const byPath = contents.get(r.doc) ?? new Map<string, FileContent>();
      byPath.set(
        r.field.path.join('\u0000'),
        lazySha256({ file: r.written, text }, () => text),
      );
      contents.set(r.doc, byPath);
    }
  });
  const local = kinds.map(({ crossValidate: _cross, ...k }): KindDefinition => k);
  const { desired, issues } = validateParsedFiles(parsed, local, undefined, (doc, spec) =>
    resolveSpec(contents.get(doc), spec),
  );
  if (issues.length > 0) throw new ValidationError(sortIssues(issues));
  return desired;
}

/**
 * Write the files and their data files into `dir` (created if missing), never over an existing file and never
 * through a link: every target is checked before the first is written. Returns the paths written.
 */
export async function writeUndoFiles(dir: string, files: readonly UndoFile[], header: string): Promise<string[]> {
  const targets = files.flatMap((f) => [
    { rel: f.name, text: () => filesYaml(header, f.documents) },
    ...f.data.map((a) => ({ rel: a.path, text: () => a.text })),
  ]);
  for (const t of targets) await checkTarget(dir, t.rel);
  await mkdir(dir, { recursive: true });
  const paths = targets.map((t) => path.join(dir, ...t.rel.split('/')));
  await refuseLinks(dir, paths); // never through a link out of -o (src/write-inside.ts)
  const written: string[] = [];
  for (const [i, t] of targets.entries()) {
    const file = paths[i]!;
    try {
      await writeInside(dir, file, t.text(), { flag: 'wx' }); // O_EXCL: never over a file, nor through a link
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw exists(file);
      throw err;
    }
    written.push(file);
  }
  return written;
}

const exists = (file: string): UsageError => new UsageError(`${file} already exists; choose another -o directory`);

/** `rel` below `dir` is free: no file there, and no folder on the way is a symbolic link (it could lead outside). */
async function checkTarget(dir: string, rel: string): Promise<void> {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const at = path.join(dir, ...parts.slice(0, i));
    let info;
    try {
      info = await lstat(at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    if (info.isSymbolicLink())
      throw new UsageError(`${at} is a symbolic link: undo writes no file through a link; choose another -o directory`);
    if (i === parts.length) throw exists(at);
  }
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
