/**
 * Reading the files manifests name with `{file}` (file-refs.ts). Such a file is data of one kind — an OpenAPI
 * spec, a certificate, a brand file — and only that:
 * - its path is relative and stays inside the manifests directory (its real path, links followed), out of hidden
 *   directories, hidden files and node_modules (other tools' files: .git/config, .env);
 * - its limit is its kind's (FileField.maxBytes: a spec up to 25 MiB, a certificate what can hold the API's
 *   10,000 characters), said with the kind's name when refused;
 * - it is read once however many manifests name it, and held once: its text, never its bytes beside it (the
 *   digest is taken from the text when first asked for); it is never parsed as a manifest nor interpolated;
 * - it is not also something else: a docops manifest (that would silently leave the set of manifests), a file
 *   the caller reserves (the daemon's config), another kind of data, or a file holding the API token.
 * Every problem is an issue at the `file` value's position, never quoting the content.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ValidationIssue } from '../model/errors.js';
import type { FileField } from '../model/kind.js';
import { formatBytes } from './decode.js';
import { isIgnoredDirectory } from './discover.js';
import { lazySha256, type FileContent, type FileRef } from './file-refs.js';
import { heldSecrets } from './interpolate.js';
import { registerSecret } from '../secrets.js';
import type { ParsedYamlDoc } from './parse.js';

/** What a data file must not also be. */
export interface FileClaims {
  /**
   * The display path of the docops manifest at this real path, if it is one. Asked first without the text, then,
   * for a file the loader could not decide on unread (one over the manifest size limit), with it.
   */
  manifest(real: string, text?: string): string | undefined;
  /** Files that are never data (the daemon's config), by real path → what they are. */
  reserved?: ReadonlyMap<string, string>;
  /** Values no data file may hold (the API token); those this process registered are refused as well. */
  secrets?: readonly string[];
}

export interface FileRefs {
  /** Real paths of the files read as data (not manifests, even when they are YAML). */
  referenced: ReadonlySet<string>;
  /** Each file read as data, by its real path relative to the manifests directory's (with `/`): what a plan read. */
  read: ReadonlyMap<string, FileContent>;
  /** Spec of `doc` with every readable reference replaced by its content. */
  resolve(doc: ParsedYamlDoc, spec: Record<string, unknown>): Record<string, unknown>;
  issues: ValidationIssue[];
}

const posOf = (r: FileRef) => r.doc.pos(['spec', ...r.field.path, 'file']);

export function tooLargeForKind(field: FileField, size: number): string {
  return `${field.holds} file may be at most ${formatBytes(field.maxBytes)} (this one is ${size} bytes)${field.limitReason ? `: ${field.limitReason}` : ''}`;
}

/** Read every referenced file once. `root` is the manifests directory (absent: references are refused). */
export async function readFileRefs(
  refs: readonly FileRef[],
  root: string | undefined,
  claims: FileClaims,
): Promise<FileRefs> {
  const issues: ValidationIssue[] = [];
  const fail = (r: FileRef, message: string): void => {
    const pos = posOf(r);
    issues.push({
      file: pos.file,
      line: pos.line,
      column: pos.column,
      message: `${r.field.path.join('.')}.file "${r.written}": ${message}`,
    });
  };
  const { byReal, realRoot } = await locate(refs, root, fail);
  const referenced = new Set<string>();
  const read = new Map<string, FileContent>();
  const contents = new Map<ParsedYamlDoc, Map<string, FileContent>>();
  const holdsSecret = heldSecrets(claims.secrets);
  for (const [real, group] of byReal) {
    const all = (message: string): void => group.forEach((r) => fail(r, message));
    const manifest = claims.manifest(real);
    if (manifest !== undefined) {
      group.forEach((r) => fail(r, manifestMessage(manifest, r.field)));
      continue; // it stays a manifest
    }
    referenced.add(real);
    const reserved = claims.reserved?.get(real);
    if (reserved !== undefined) {
      group.forEach((r) => fail(r, `is ${reserved}, not data: name the file that holds ${r.field.holds}`));
      continue;
    }
    if (otherKinds(group, fail)) continue;
    const field = group[0]!.field;
    const text = await readText(real, field, all);
    if (text === undefined) continue;
    const named = claims.manifest(real, text);
    if (named !== undefined) {
      referenced.delete(real);
      group.forEach((r) => fail(r, manifestMessage(named, r.field)));
      continue;
    }
    if (holdsSecret(text)) {
      all('holds the API token (or another secret docops holds): it is never sent as data');
      continue;
    }
    // A secret field's content (a certificate) is a secret from the moment it is read: no message may quote it.
    for (const r of group) if (r.mark === 'credential' || r.mark === 'payload') registerSecret(text, r.mark);
    const rel = path.relative(realRoot!, real).split(path.sep).join('/');
    read.set(
      rel,
      lazySha256({ file: rel, text }, () => text),
    );
    for (const r of group) {
      const byPath = contents.get(r.doc) ?? new Map<string, FileContent>();
      // One text for every reference; each digest from it, when first read.
      byPath.set(
        r.field.path.join('\u0000'),
        lazySha256({ file: r.written, text }, () => text),
      );
      contents.set(r.doc, byPath);
    }
  }
  return { referenced, read, issues, resolve: (doc, spec) => resolveSpec(contents.get(doc), spec) };
}

const manifestMessage = (manifest: string, field: FileField): string =>
  `is the docops manifest ${manifest} (apiVersion: docops/v1), not data: name the file that holds ${field.holds}`;

/** References grouped by the real path they name; those that cannot name a file inside `root` fail here. */
async function locate(
  refs: readonly FileRef[],
  root: string | undefined,
  fail: (r: FileRef, message: string) => void,
): Promise<{ byReal: Map<string, FileRef[]>; realRoot: string | undefined }> {
  const byReal = new Map<string, FileRef[]>();
  const realRoot = root === undefined ? undefined : await realpath(root);
  for (const r of refs) {
    if (realRoot === undefined) {
      fail(r, 'files are read only from a manifests directory');
      continue;
    }
    if (path.isAbsolute(r.written) || r.written.trim() === '') {
      fail(r, 'must be a path relative to the manifest');
      continue;
    }
    let real: string;
    try {
      real = await realpath(r.absolute);
    } catch (e) {
      fail(r, `cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    const rel = path.relative(realRoot, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
      fail(r, 'is outside the manifests directory (links are followed); docops reads no file outside it');
      continue;
    }
    // Where discovery never looks for manifests, and other tools keep files that hold credentials (.git/config,
    // .env, .npmrc): never sent anywhere as data. Decided on the real path, so a link cannot lead there.
    if (rel.split(path.sep).some(isIgnoredDirectory)) {
      fail(
        r,
        'is in a hidden directory or node_modules, or is a hidden file, where other tools keep their files (.git, .env …): docops reads no data there',
      );
      continue;
    }
    byReal.set(real, [...(byReal.get(real) ?? []), r]);
  }
  return { byReal, realRoot };
}

/** Whether the references name one file as two kinds of data (each one then fails, naming another). */
function otherKinds(group: readonly FileRef[], fail: (r: FileRef, message: string) => void): boolean {
  if (group.every((r) => r.field.holds === group[0]!.field.holds)) return false;
  for (const r of group) {
    const other = group.find((o) => o.field.holds !== r.field.holds)!;
    const at = posOf(other);
    fail(
      r,
      `is also named as ${other.field.holds} (${at.file}:${at.line}:${at.column}); a file holds one kind of data`,
    );
  }
  return true;
}

/** The file's text, read once into one buffer and decoded; undefined (and the problem said) when it cannot be. */
async function readText(real: string, field: FileField, fail: (message: string) => void): Promise<string | undefined> {
  try {
    const info = await stat(real);
    if (!info.isFile()) return void fail('is not a file');
    // Checked before reading, so a huge file is never loaded.
    if (info.size > field.maxBytes) return void fail(tooLargeForKind(field, info.size));
    const bytes = await readFile(real);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return void fail('is not valid UTF-8 text');
    }
  } catch (e) {
    return void fail(`cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** `spec` with the content of each `{file}` at its field's path (keys: the path joined by NUL). */
export function resolveSpec(
  byPath: ReadonlyMap<string, FileContent> | undefined,
  spec: Record<string, unknown>,
): Record<string, unknown> {
  if (!byPath) return spec;
  const out = structuredClone(spec);
  for (const [key, content] of byPath) {
    const at = key.split('\u0000');
    let parent: Record<string, unknown> = out;
    for (const k of at.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
    parent[at[at.length - 1]!] = content;
  }
  return out;
}
