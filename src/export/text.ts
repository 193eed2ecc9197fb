/**
 * The text of exported manifest files, each headed by the editor-schema comment when the repository has the
 * schemas (`docops init` writes them: findEditorSchema). Values are redacted
 * (src/secrets.ts) before they are rendered, so a live value that holds the API token is written as
 * `[redacted]` inside a valid YAML string, never as the token.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeInterpolation } from '../manifests/interpolate.js';
import { renderWithNotes } from '../manifests/unknown-values.js';
import { redactValue } from '../secrets.js';

/** The JSON Schemas docops ships (schemas/ of the package: two levels up from src/, dist/ and dist/cli's chunks alike). */
export const SHIPPED_SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** The editor schema of manifest documents, and the folder `docops init` writes the schemas to. */
export const DOCUMENT_SCHEMA = 'document.schema.json';
export const SCHEMAS_FOLDER = 'schemas';

/**
 * The editor schema exported files point to: the nearest `schemas/document.schema.json` at or above `dir` — the
 * one `docops init` writes into a repository — up to the top of the git work tree holding `dir` (or, outside one,
 * its parent). Undefined when there is none: a file then names no schema, never a URL of a package docops does
 * not own nor a path into the installation that happened to run the export.
 */
export function findEditorSchema(dir: string): string | undefined {
  const start = path.resolve(dir);
  const top = gitWorkTree(start) ?? path.dirname(start);
  for (let at = start; ; at = path.dirname(at)) {
    const candidate = path.join(at, SCHEMAS_FOLDER, DOCUMENT_SCHEMA);
    if (existsSync(candidate)) return candidate;
    if (at === top || path.dirname(at) === at) return undefined;
  }
}

/** The top of the git work tree holding `dir` (the directory with `.git`), if any. */
export function gitWorkTree(dir: string): string | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return undefined;
  }
}

export function schemaComment(file: string, schema: string | undefined): string {
  if (schema === undefined) return '';
  const rel = path
    .relative(path.dirname(path.resolve(file)), schema)
    .split(path.sep)
    .join('/');
  return `# yaml-language-server: $schema=${rel}\n`;
}

/**
 * One document as YAML (no `---`), credentials redacted (a payload secret such as a certificate is what the
 * document must send), `${` escaped so live text never reads as a variable.
 */
export function renderDocument(doc: object): string {
  return renderWithNotes(escapeInterpolation(redactValue(doc, 'credentials')), { lineWidth: 0 });
}

/** A file's text: the header comment lines (the editor schema's, when there is one), then the documents separated by `---`. */
export function renderManifestFile(file: string, documents: readonly string[], note: string, schema?: string): string {
  return `${schemaComment(file, schema)}# ${note}\n${documents.join('---\n')}`;
}
