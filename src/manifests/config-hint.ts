/**
 * A daemon config (docops.yaml) handed over as a manifest — `-m` pointed at the directory holding the config,
 * or at the config itself — would fail with a list of envelope errors that hide the real mistake. Say what
 * the file is and where the manifests it names are instead.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidationIssue } from '../model/errors.js';
import type { ParsedYamlDoc } from './parse.js';
import { isRecord } from '../model/json.js';

let configFields: ReadonlySet<string> | undefined;
/** The daemon config's top-level fields (schemas/config.schema.json), read only when a document looks like one. */
function daemonConfigFields(): ReadonlySet<string> {
  if (!configFields) {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as {
      properties: object;
    };
    configFields = new Set(Object.keys(schema.properties));
  }
  return configFields;
}

/**
 * The issue for a document shaped like a daemon config — no apiVersion or kind, and a `manifests` string or
 * only daemon config fields — else undefined.
 */
export function daemonConfigIssue(p: ParsedYamlDoc): ValidationIssue | undefined {
  const v = p.value;
  if (!isRecord(v) || 'apiVersion' in v || 'kind' in v) return undefined;
  const keys = Object.keys(v);
  const named = typeof v.manifests === 'string';
  if (!named && (keys.length === 0 || !keys.every((k) => daemonConfigFields().has(k)))) return undefined;
  const what = 'this is a docops daemon config, not a manifest';
  if (!named)
    return {
      ...p.pos([]),
      message: `${what}: point -m at the manifests directory (the daemon takes it from \`manifests:\` or DOCOPS_MANIFESTS)`,
    };
  // Relative to the config file, as the daemon reads it; shown relative to the working directory.
  const dir = path.resolve(path.dirname(p.file), v.manifests as string);
  const rel = path.relative(process.cwd(), dir) || '.';
  const shown = (rel.startsWith('..') || path.isAbsolute(rel) ? dir : rel).split(path.sep).join('/');
  return {
    ...p.pos(['manifests']),
    message: `${what}: the manifests it names are in ${shown} (validate them with -m ${shown})`,
    path: '/manifests',
  };
}

/**
 * The issue for a data file left in the manifests tree — a mapping with neither apiVersion nor kind whose top
 * level says what it is (an OpenAPI or Swagger document): such files are read only through a manifest's
 * `{file: …}`, and this one no manifest names (its document was deleted or the path is misspelt). Else undefined.
 */
export function strayDataFileIssue(p: ParsedYamlDoc): ValidationIssue | undefined {
  const v = p.value;
  if (!isRecord(v) || 'apiVersion' in v || 'kind' in v) return undefined;
  const format = 'openapi' in v ? 'an OpenAPI document' : 'swagger' in v ? 'a Swagger document' : undefined;
  if (!format) return undefined;
  return {
    ...p.pos([]),
    message: `this is ${format}, not a manifest, and no manifest names it with {file: …}: reference it from its OpenAPISpec document (source: {file: <path relative to that manifest>}) or delete it`,
  };
}
