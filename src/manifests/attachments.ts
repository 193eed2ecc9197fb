/**
 * Files manifests name instead of inlining a value (an OpenAPI spec's text, a SAML provider's certificate), as
 * export and undo write them. Where a kind lists a `fileFields` path, its `export` (and its undo's documents) may put
 * `{file, text}`: the writer writes `text` to `file`, relative to the manifest file the document goes into (the way
 * the loader reads it back), and the document keeps only `{file}`. The only per-kind knowledge is the kind's own
 * `fileFields`.
 */
import path from 'node:path';
import { DocopsError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import { redactValue } from '../secrets.js';
import { isRecord } from '../model/json.js';

export interface Attachment {
  /** Relative to the output directory, with `/`. */
  path: string;
  text: string;
}

/**
 * The documents with every `{file, text}` at a `fileFields` path reduced to `{file}`, and the files to write. `dir`
 * is the directory (relative to the output, `''` for the top) of the manifest files the documents go into.
 */
export function extractAttachments(
  kind: KindDefinition,
  documents: readonly object[],
  dir: string,
): { documents: object[]; attachments: Attachment[] } {
  const fields = kind.fileFields ?? [];
  if (fields.length === 0) return { documents: [...documents], attachments: [] };
  const attachments: Attachment[] = [];
  const out = documents.map((doc) => {
    if (!isRecord(doc) || !isRecord(doc['spec'])) return doc;
    // Objects on a field's path are copied, nothing else: a spec's text (up to 25 MiB) is never copied.
    const spec: Record<string, unknown> = { ...doc['spec'] };
    for (const { path: at } of fields) {
      let parent: Record<string, unknown> | undefined = spec;
      for (const k of at.slice(0, -1)) parent = isRecord(parent?.[k]) ? (parent[k] = { ...parent[k] }) : undefined;
      const leaf = at[at.length - 1];
      const value = parent && leaf !== undefined ? parent[leaf] : undefined;
      if (
        !parent ||
        leaf === undefined ||
        !isRecord(value) ||
        typeof value['file'] !== 'string' ||
        typeof value['text'] !== 'string'
      )
        continue;
      const file = value['file'];
      const target = path.posix.normalize(path.posix.join(dir, file));
      if (path.posix.isAbsolute(file) || target.startsWith('..') || target === '.') {
        throw new DocopsError(`kind ${kind.kind} names the file "${file}", which is not inside the output directory`);
      }
      attachments.push({ path: target, text: redactValue(value['text'], 'credentials') });
      parent[leaf] = { file };
    }
    return { ...doc, spec };
  });
  const seen = new Set<string>();
  for (const a of attachments) {
    if (seen.has(a.path)) throw new DocopsError(`kind ${kind.kind} writes the file "${a.path}" twice`);
    seen.add(a.path);
  }
  return { documents: out, attachments };
}
