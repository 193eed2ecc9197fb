/**
 * Writing exported documents as manifest files, each headed by the editor-schema comment. Values are redacted
 * (src/secrets.ts) before they are rendered, so a live value that holds the API token is written as
 * `[redacted]` inside a valid YAML string, never as the token.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { UsageError } from '../core/errors.js';
import { redactValue } from '../secrets.js';
import type { PlannedFile } from './layout.js';

/** schemas/document.schema.json of this docops installation (works from src/ and dist/ alike). */
export const DOCUMENT_SCHEMA = fileURLToPath(new URL('../../schemas/document.schema.json', import.meta.url));

export function schemaComment(file: string, schema = DOCUMENT_SCHEMA): string {
  const rel = path.relative(path.dirname(path.resolve(file)), schema).split(path.sep).join('/');
  return `# yaml-language-server: $schema=${rel}\n`;
}

export function renderManifestFile(file: string, documents: readonly object[], note: string, schema?: string): string {
  const body = documents.map((d) => stringify(redactValue(d), { lineWidth: 0 })).join('---\n');
  return `${schemaComment(file, schema)}# ${note}\n${body}`;
}

/** Write every file below `dir`; an existing file is an error unless `overwrite`. Returns the paths written. */
export async function writeManifestFiles(dir: string, files: readonly PlannedFile[], options: { overwrite: boolean; note: string; schema?: string }): Promise<string[]> {
  const written: string[] = [];
  for (const f of files) {
    const target = path.join(dir, ...f.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await writeFile(target, renderManifestFile(target, f.documents, options.note, options.schema), { flag: options.overwrite ? 'w' : 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${target} already exists; pass --overwrite to replace it, or export into an empty directory`);
      throw err;
    }
    written.push(target);
  }
  return written;
}
