/**
 * Writing exported documents as manifest files, each headed by the editor-schema comment. Values are redacted
 * (src/secrets.ts) before they are rendered, so a live value that holds the API token is written as
 * `[redacted]` inside a valid YAML string, never as the token.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { UsageError } from '../model/errors.js';
import { escapeInterpolation } from '../manifests/interpolate.js';
import { redactValue } from '../secrets.js';
import type { PlannedFile } from './layout.js';

/**
 * The editor schema exported files point to: the published package's schemas/document.schema.json at this
 * docops version (npm serves every file of a published package at this URL), so the comment works after the
 * files are committed, on any machine, whatever path docops happens to be installed at. A path (tests, a
 * self-hosted copy) is written relative to the file instead.
 */
export function documentSchemaUrl(): string {
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { name?: unknown; version?: unknown };
  const name = typeof pkg.name === 'string' ? pkg.name : 'docops';
  const version = typeof pkg.version === 'string' ? pkg.version : 'latest';
  return `https://unpkg.com/${name}@${version}/schemas/document.schema.json`;
}

export function schemaComment(file: string, schema = documentSchemaUrl()): string {
  if (/^https?:\/\//.test(schema)) return `# yaml-language-server: $schema=${schema}\n`;
  const rel = path.relative(path.dirname(path.resolve(file)), schema).split(path.sep).join('/');
  return `# yaml-language-server: $schema=${rel}\n`;
}

/**
 * One document as YAML (no `---`), credentials redacted (a payload secret such as a certificate is what the
 * document must send), `${` escaped so live text never reads as a variable.
 */
export function renderDocument(doc: object): string {
  return stringify(escapeInterpolation(redactValue(doc, 'credentials')), { lineWidth: 0 });
}

/** A file's text: the two header comment lines, then the rendered documents separated by `---`. */
export function renderManifestFile(file: string, documents: readonly string[], note: string, schema?: string): string {
  return `${schemaComment(file, schema)}# ${note}\n${documents.join('---\n')}`;
}

const alreadyExists = (file: string): UsageError =>
  new UsageError(`${file} already exists; pass --overwrite to replace it (and the rest of an earlier export), or export into an empty directory`);

/**
 * Files in `dir` (top level) that are named like a part of this export but that it does not write: left from an
 * earlier export of a larger organization (`members-004.yaml`) or of one laid out differently (`members.yaml`
 * next to `members-001.yaml`). Mixed with the new files they would duplicate or resurrect objects.
 */
export async function staleExportFiles(dir: string, isExportName: (name: string) => boolean, files: readonly PlannedFile[]): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const written = new Set(files.map((f) => f.path));
  return names.filter((n) => isExportName(n) && !written.has(n)).sort().map((n) => path.join(dir, n));
}

/**
 * Write every file below `dir`; an existing file, or a stale part of an earlier export, is an error unless
 * `overwrite` (then stale parts are removed). Returns the paths written and removed.
 */
export async function writeManifestFiles(
  dir: string,
  files: readonly PlannedFile[],
  options: { overwrite: boolean; note: string; schema?: string; stale?: readonly string[] },
): Promise<{ written: string[]; removed: string[] }> {
  const stale = options.stale ?? [];
  if (stale.length > 0 && !options.overwrite) throw alreadyExists(stale[0]!);
  const written: string[] = [];
  for (const f of files) {
    const target = path.join(dir, ...f.path.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    try {
      const content = f.text ?? renderManifestFile(target, f.documents, options.note, options.schema);
      await writeFile(target, content, { flag: options.overwrite ? 'w' : 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyExists(target);
      throw err;
    }
    written.push(target);
  }
  for (const file of stale) await rm(file);
  return { written, removed: [...stale] };
}
