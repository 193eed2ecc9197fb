/**
 * The text of exported manifest files, each headed by the editor-schema comment. Values are redacted
 * (src/secrets.ts) before they are rendered, so a live value that holds the API token is written as
 * `[redacted]` inside a valid YAML string, never as the token.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeInterpolation } from '../manifests/interpolate.js';
import { renderWithNotes } from '../manifests/unknown-values.js';
import { redactValue } from '../secrets.js';

/**
 * The editor schema exported files point to: the published package's schemas/document.schema.json at this
 * docops version (npm serves every file of a published package at this URL), so the comment works after the
 * files are committed, on any machine, whatever path docops happens to be installed at. A path (tests, a
 * self-hosted copy) is written relative to the file instead.
 */
export function documentSchemaUrl(): string {
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
    name?: unknown;
    version?: unknown;
  };
  const name = typeof pkg.name === 'string' ? pkg.name : 'docops';
  const version = typeof pkg.version === 'string' ? pkg.version : 'latest';
  return `https://unpkg.com/${name}@${version}/schemas/document.schema.json`;
}

export function schemaComment(file: string, schema = documentSchemaUrl()): string {
  if (/^https?:\/\//.test(schema)) return `# yaml-language-server: $schema=${schema}\n`;
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

/** A file's text: the two header comment lines, then the rendered documents separated by `---`. */
export function renderManifestFile(file: string, documents: readonly string[], note: string, schema?: string): string {
  return `${schemaComment(file, schema)}# ${note}\n${documents.join('---\n')}`;
}
