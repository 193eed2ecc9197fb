/**
 * Files a manifest names instead of inlining them (`certificate: { file: certs/idp.pem }`, an OpenAPI spec's
 * `source: { file: specs/petstore.yaml }`): their shapes, and finding them. A kind lists where such references may
 * stand and what the file holds (KindDefinition.fileFields); the loader reads each one (data-files.ts) and replaces
 * `{file}` with `{file, text, sha256}` before the kind sees the spec, so kinds stay pure and plans can show a digest
 * instead of the content. The digest is computed when first read (`lazySha256`): `validate` never reads it, and
 * node:crypto (~4 ms of every start) is loaded only by a run that does. The content of a field the kind's schema
 * marks secret (a SAML certificate) is registered as a secret as soon as it is read (data-files.ts, src/secrets.ts).
 */
import path from 'node:path';
import type { FileField, KindDefinition } from '../model/kind.js';
import type { ParsedYamlDoc } from './parse.js';
import { secretMarkAt, type SecretMark } from './secret-fields.js';
import { isRecord } from '../model/json.js';

/** What a `{file}` reference becomes once read. */
export interface FileContent {
  file: string;
  /** The file's text (UTF-8; a leading BOM is not part of it). */
  text: string;
  /** sha256 of the text as UTF-8, hex: what a kind sends is the text, so that is what is compared. */
  sha256: string;
}

/** sha256 (hex) of `data` (a string as UTF-8). node:crypto is loaded on the first call, not with this module. */
export function sha256Hex(data: string | Uint8Array): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(data).digest('hex');
}

/**
 * `value` with an enumerable `sha256` property whose digest of `data()` is computed on its first read and kept:
 * equal to a plain property for spreads, JSON, structuredClone and comparisons, but a run that never reads it
 * (`validate`) neither hashes nor loads node:crypto. `data` is called at most once.
 */
export function lazySha256<T extends object>(value: T, data: () => string | Uint8Array): T & { sha256: string } {
  let hex: string | undefined;
  lazyDigests.add(value);
  return Object.defineProperty(value, 'sha256', {
    enumerable: true,
    configurable: true,
    get: () => (hex ??= sha256Hex(data())),
  }) as T & { sha256: string };
}

/** Values whose `sha256` is lazySha256's (so a type check need not read, i.e. compute, it). */
const lazyDigests = new WeakSet<object>();

const hasSha256 = (v: object): boolean =>
  lazyDigests.has(v) || typeof (v as Record<string, unknown>)['sha256'] === 'string';

export const isFileRef = (v: unknown): v is { file: string } => isRecord(v) && typeof v['file'] === 'string';

export const isFileContent = (v: unknown): v is FileContent =>
  isFileRef(v) && typeof (v as Record<string, unknown>)['text'] === 'string' && hasSha256(v);

/** One `{file}` reference of a document. */
export interface FileRef {
  doc: ParsedYamlDoc;
  field: FileField;
  /** What the kind's schema marks the field (secret-fields.ts): a secret field's file content is registered as one. */
  mark: SecretMark | undefined;
  /** The path as written. */
  written: string;
  /** Absolute path as written (not yet resolved through links). */
  absolute: string;
}

/** Every `{file}` reference of `docs`, at the places their kinds declare. */
export function findFileRefs(docs: readonly ParsedYamlDoc[], kinds: ReadonlyMap<string, KindDefinition>): FileRef[] {
  const refs: FileRef[] = [];
  for (const doc of docs) {
    const value = doc.value as Record<string, unknown> | null;
    if (!value || typeof value !== 'object') continue;
    const kind = typeof value['kind'] === 'string' ? kinds.get(value['kind']) : undefined;
    const spec = value['spec'];
    if (!kind?.fileFields || typeof spec !== 'object' || spec === null) continue;
    for (const field of kind.fileFields) {
      const v = field.path.reduce<unknown>(
        (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
        spec,
      );
      if (isFileRef(v))
        refs.push({
          doc,
          field,
          mark: secretMarkAt(kind.schema, spec, [...field.path]),
          written: v.file,
          absolute: path.resolve(path.dirname(doc.file), v.file),
        });
    }
  }
  return refs;
}
