/**
 * Files a manifest names instead of inlining them (`certificate: { file: certs/idp.pem }`, an OpenAPI spec's
 * `source: { file: specs/petstore.yaml }`). A kind lists where such references may stand (KindDefinition.fileFields);
 * the loader reads each one relative to the manifest that names it, and replaces `{file}` with
 * `{file, text, sha256}` before the kind sees the spec, so kinds stay pure and plans can show a digest instead
 * of the content. The digest is computed when first read (`lazySha256`): `validate` never reads it, and
 * node:crypto (~4 ms of every start) is loaded only by a run that does.
 *
 * Rules: the path is relative and stays inside the manifests directory (its real path, links followed); the file
 * is a regular file of at most the manifest size limit, valid UTF-8. Every problem is an issue at the `file`
 * value's position, never quoting the content. A file named this way is data, not a manifest: a `.yaml` one (an
 * OpenAPI spec) is not loaded as manifest documents. The content of a field the kind's schema marks secret (a
 * SAML certificate) is registered as a secret as soon as it is read (src/secrets.ts).
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ValidationIssue } from '../core/errors.js';
import type { KindDefinition } from '../core/kind.js';
import { DEFAULT_MAX_FILE_BYTES, tooLargeMessage } from './decode.js';
import type { ParsedYamlDoc } from './parse.js';
import { secretMarkAt, type SecretMark } from './secret-fields.js';
import { registerSecret } from '../secrets.js';

/** What a `{file}` reference becomes once read. */
export interface FileContent {
  file: string;
  text: string;
  /** sha256 of the file's bytes, hex. */
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
  return Object.defineProperty(value, 'sha256', { enumerable: true, configurable: true, get: () => (hex ??= sha256Hex(data())) }) as T & { sha256: string };
}

/** Values whose `sha256` is lazySha256's (so a type check need not read, i.e. compute, it). */
const lazyDigests = new WeakSet<object>();

const hasSha256 = (v: object): boolean => lazyDigests.has(v) || typeof (v as Record<string, unknown>)['sha256'] === 'string';

export const isFileRef = (v: unknown): v is { file: string } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Record<string, unknown>)['file'] === 'string';

export const isFileContent = (v: unknown): v is FileContent => isFileRef(v) && typeof (v as Record<string, unknown>)['text'] === 'string' && hasSha256(v);

interface Ref {
  doc: ParsedYamlDoc;
  at: readonly string[];
  /** What the kind's schema marks the field (secret-fields.ts): a secret field's file content is registered as one. */
  mark: SecretMark | undefined;
  written: string;
  /** Absolute path as written (not yet resolved through links). */
  absolute: string;
}

export interface FileRefs {
  /** Real paths of the files named by references (they are data, not manifests). */
  referenced: ReadonlySet<string>;
  /** Spec of `doc` with every readable reference replaced by its content. */
  resolve(doc: ParsedYamlDoc, spec: Record<string, unknown>): Record<string, unknown>;
  issues: ValidationIssue[];
}

/** Read every file the documents reference. `root` is the manifests directory (absent: references are refused). */
export async function readFileRefs(docs: readonly ParsedYamlDoc[], kinds: ReadonlyMap<string, KindDefinition>, root: string | undefined, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<FileRefs> {
  const refs: Ref[] = [];
  for (const doc of docs) {
    const value = doc.value as Record<string, unknown> | null;
    if (!value || typeof value !== 'object') continue;
    const kind = typeof value['kind'] === 'string' ? kinds.get(value['kind']) : undefined;
    const spec = value['spec'];
    if (!kind?.fileFields || typeof spec !== 'object' || spec === null) continue;
    for (const at of kind.fileFields) {
      const v = at.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), spec);
      if (isFileRef(v)) refs.push({ doc, at, mark: secretMarkAt(kind.schema, spec, [...at]), written: v.file, absolute: path.resolve(path.dirname(doc.file), v.file) });
    }
  }
  const issues: ValidationIssue[] = [];
  const contents = new Map<ParsedYamlDoc, Map<string, FileContent>>();
  const referenced = new Set<string>();
  const realRoot = root === undefined ? undefined : await realpath(root);
  for (const r of refs) {
    const fail = (message: string): void => {
      const pos = r.doc.pos(['spec', ...r.at, 'file']);
      issues.push({ file: pos.file, line: pos.line, column: pos.column, message: `${r.at.join('.')}.file "${r.written}": ${message}` });
    };
    if (realRoot === undefined) {
      fail('files are read only from a manifests directory');
      continue;
    }
    if (path.isAbsolute(r.written) || r.written.trim() === '') {
      fail('must be a path relative to the manifest');
      continue;
    }
    let real: string;
    try {
      real = await realpath(r.absolute);
    } catch (e) {
      fail(`cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    const rel = path.relative(realRoot, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
      fail('is outside the manifests directory (links are followed); docops reads no file outside it');
      continue;
    }
    referenced.add(real);
    try {
      const info = await stat(real);
      if (!info.isFile()) {
        fail('is not a file');
        continue;
      }
      if (info.size > maxBytes) {
        fail(tooLargeMessage(info.size, maxBytes));
        continue;
      }
      const bytes = await readFile(real);
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        fail('is not valid UTF-8 text');
        continue;
      }
      if (r.mark === 'credential' || r.mark === 'payload') registerSecret(text, r.mark);
      const byPath = contents.get(r.doc) ?? new Map<string, FileContent>();
      byPath.set(r.at.join('\u0000'), lazySha256({ file: r.written, text }, () => bytes));
      contents.set(r.doc, byPath);
    } catch (e) {
      fail(`cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return {
    referenced,
    issues,
    resolve(doc, spec) {
      const byPath = contents.get(doc);
      if (!byPath) return spec;
      const out = structuredClone(spec);
      for (const [key, content] of byPath) {
        const at = key.split('\u0000');
        let parent: Record<string, unknown> = out;
        for (const k of at.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
        parent[at[at.length - 1]!] = content;
      }
      return out;
    },
  };
}
