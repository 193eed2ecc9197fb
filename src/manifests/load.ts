/**
 * Directory of YAML → validated desired state. Every problem in every file is collected and thrown as one
 * ValidationError, sorted by position; nothing stops at the first error.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Stats } from 'node:fs';
import { UsageError, ValidationError, type SourcePos, type ValidationIssue } from '../model/errors.js';
import type { DesiredEntry, KindDefinition, Report } from '../model/kind.js';
import { desiredState } from '../model/state.js';
import { DEFAULT_MAX_FILE_BYTES, tooLargeMessage } from './decode.js';
import { daemonConfigIssue, strayDataFileIssue } from './config-hint.js';
import { discoverManifests, displayPath } from './discover.js';
import type { ManifestDocument } from '../model/document.js';
import { findDuplicates } from './duplicates.js';
import { readManifestSet, type ParseManifest } from './manifest-set.js';
import { checkEnvelope } from './envelope.js';
import { allowedVariables, type Env, type VarSource } from './interpolate.js';
import type { FileContent } from './file-refs.js';
import { parseYamlFile, type ParseOptions, type ParsedYamlDoc } from './parse.js';
import { validateWithSchema } from './schema.js';

export interface LoadOptions extends Omit<ParseOptions, 'vars'> {
  /** Where `${VAR}` values come from; default process.env. */
  env?: Env;
  /** The variables manifests may read: names, or prefixes ending in `*` (`TEAM_*`). Default none. */
  allowEnv?: readonly string[];
  /** Values no variable may carry into a manifest, nor a data file hold (the API token). DOCOPS_* variables are refused anyway. */
  secrets?: readonly string[];
  /** Files that are never data, by path → what they are (the daemon passes its config file). */
  reserved?: ReadonlyMap<string, string>;
  /** Parses one manifest file's bytes (default the loader's own); the daemon's keeps unchanged files' parses (src/daemon/parse-cache.ts). */
  parseManifest?: ParseManifest;
}

export interface LoadResult {
  documents: ManifestDocument[];
  /** Manifest kind name → its desired entries; every registered kind is present (maybe empty). Carries the documents. */
  desired: Map<string, DesiredEntry[]> & { readonly documents: readonly ManifestDocument[] };
  /** What holds only if the live state agrees (e.g. a reference naming no manifest), sorted; never fails a load. */
  warnings: ValidationIssue[];
  /** What the manifests read besides their own files: what a saved plan pins. */
  inputs: LoadInputs;
}

/** What a load read besides the manifest files. */
export interface LoadInputs {
  /** The data files (`{file}`), by their real path relative to the manifests directory's (with `/`). */
  dataFiles: ReadonlyMap<string, FileContent>;
  /**
   * The variables read as `${NAME}`, with the value read (undefined: unset). Only those of the files this load
   * parsed: a parse a cache hands back (the daemon's) reads none.
   */
  variables: ReadonlyMap<string, string | undefined>;
}

export async function loadManifests(
  dir: string,
  kinds: readonly KindDefinition[],
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const kindsByName = indexKinds(kinds);
  const found = await manifestFiles(dir);
  const { env = process.env, allowEnv = [], secrets = [], parseManifest = parseYamlFile, reserved, ...rest } = opts;
  const variables = new Map<string, string | undefined>();
  const parseOpts: ParseOptions = { ...rest, vars: recording(allowedVariables(env, allowEnv, secrets), variables) };
  // Files a manifest names (`{file: …}`) are data, not manifests: never parsed as such (manifest-set.ts).
  const set = await readManifestSet(found.files, found.root, kindsByName, parseManifest, {
    ...parseOpts,
    secrets,
    ...(reserved ? { reserved } : {}),
  });
  const { documents, desired, issues, warnings } = validateParsedFiles(
    [{ documents: [], issues: [...found.issues, ...set.refs.issues] }, ...set.files],
    kinds,
    kindsByName,
    set.refs.resolve,
  );
  if (issues.length > 0) throw new ValidationError(sortIssues(issues));
  // Never "nothing is wanted": an empty manifest set would plan to change nothing (or, pruning, to delete).
  if (documents.length === 0) throw new UsageError(noManifestsMessage(dir));
  return { documents, desired, warnings: sortIssues(warnings), inputs: { dataFiles: set.refs.read, variables } };
}

/** `vars`, noting each variable it lets a manifest read (and the value read) in `read`. */
function recording(vars: VarSource, read: Map<string, string | undefined>): VarSource {
  return {
    read(name) {
      const r = vars.read(name);
      if ('value' in r) read.set(name, r.value);
      return r;
    },
  };
}

function noManifestsMessage(dir: string): string {
  return `no manifests in ${dir}: it holds no .yaml or .yml file (hidden directories and node_modules are not searched); point it at the directory that holds the manifests`;
}

/** A file as read and parsed: its documents and the problems reading or parsing it. */
export interface ParsedFile {
  documents: ParsedYamlDoc[];
  issues: ValidationIssue[];
}

/**
 * The loader's steps after parsing: envelope, spec schema, toDesired, crossValidate, duplicates. Issues
 * come unsorted, each file's own issues before those of its documents. The CPU benchmark measures this.
 */
export function validateParsedFiles(
  files: readonly ParsedFile[],
  kinds: readonly KindDefinition[],
  kindsByName: ReadonlyMap<string, KindDefinition> = indexKinds(kinds),
  /** Replaces the `{file}` references of a document's spec by their content (src/manifests/file-refs.ts). */
  resolveFiles?: (doc: ParsedYamlDoc, spec: Record<string, unknown>) => Record<string, unknown>,
): Omit<LoadResult, 'inputs'> & { issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const report: Report = (pos: SourcePos, message: string) =>
    issues.push({ file: pos.file, line: pos.line, column: pos.column, message });
  const warnings: ValidationIssue[] = [];
  const warn: Report = (pos: SourcePos, message: string) =>
    warnings.push({ file: pos.file, line: pos.line, column: pos.column, message });
  const documents: ManifestDocument[] = [];
  const desired = desiredState(new Map<string, DesiredEntry[]>(kinds.map((k) => [k.kind, []])), documents);
  for (const file of files) {
    issues.push(...file.issues);
    for (const p of file.documents) {
      const valid = validateDocument(p, kindsByName, issues);
      if (!valid) continue;
      const doc = resolveFiles ? { ...valid, spec: resolveFiles(p, valid.spec), pos: valid.pos } : valid;
      documents.push(doc);
      const list = desired.get(doc.kind)!;
      // A loop, not push(...entries): one Members document may yield 60,000 entries.
      for (const e of kindsByName.get(doc.kind)!.toDesired(doc, report)) list.push(e);
    }
  }
  const duplicates = findDuplicates(desired);
  issues.push(...duplicates.issues);
  for (const kind of kinds) kind.crossValidate?.(desired.get(kind.kind)!, desired, report, duplicates.index, warn);
  return { documents, desired, issues, warnings };
}

function indexKinds(kinds: readonly KindDefinition[]): Map<string, KindDefinition> {
  const byName = new Map<string, KindDefinition>();
  for (const k of kinds) {
    if (byName.has(k.kind)) throw new Error(`kind ${k.kind} is registered twice`);
    byName.set(k.kind, k);
  }
  return byName;
}

/** Display paths of the manifest files, and links or directories that could not be followed; `dir` may also be a single file. */
async function manifestFiles(dir: string): Promise<{ files: string[]; issues: ValidationIssue[]; root: string }> {
  let info: Stats;
  try {
    info = await stat(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(`manifests directory ${dir} does not exist`);
    throw new UsageError(`cannot read manifests directory ${dir}: ${(e as Error).message}`, { cause: e });
  }
  if (info.isFile()) return { files: [displayPath(dir, '')], issues: [], root: path.dirname(dir) };
  if (!info.isDirectory()) throw new UsageError(`${dir} is not a directory`);
  const { files, problems } = await discoverManifests(dir);
  return {
    root: dir,
    files: files.map((rel) => displayPath(dir, rel)),
    issues: problems.map((p) => ({ file: displayPath(dir, p.rel), line: 1, column: 1, message: p.message })),
  };
}

/** Read and parse one file; problems reading it (size, missing, unreadable) become issues. */
export async function readManifestFile(
  file: string,
  opts: ParseOptions = {},
): Promise<{ documents: ParsedYamlDoc[]; issues: ValidationIssue[] }> {
  const max = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const fail = (message: string) => ({ documents: [], issues: [{ file, line: 1, column: 1, message }] });
  try {
    const { size } = await stat(file);
    // Checked before reading so a huge file is never loaded into memory.
    if (size > max) return fail(tooLargeMessage(size, max));
    return parseYamlFile(file, await readFile(file), opts);
  } catch (e) {
    // E.g. deleted between discovery and reading (a watched directory) or unreadable: an issue, not a crash.
    return fail(`cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Envelope + spec schema; the document when both are valid (issues go to `issues`). */
function validateDocument(
  p: ParsedYamlDoc,
  kinds: ReadonlyMap<string, KindDefinition>,
  issues: ValidationIssue[],
): ManifestDocument | undefined {
  const config = daemonConfigIssue(p) ?? strayDataFileIssue(p);
  if (config) {
    issues.push(config);
    return undefined;
  }
  const envelope = checkEnvelope(p, kinds);
  issues.push(...envelope.issues);
  if (!envelope.kind || !envelope.spec) return undefined;
  const specIssues = validateWithSchema(
    envelope.spec,
    envelope.kind.schema,
    (path) => p.pos(['spec', ...path]),
    'spec',
    (path) => p.keyPos(['spec', ...path]),
  );
  issues.push(...specIssues);
  return specIssues.length === 0 ? envelope.doc : undefined;
}

/** By file, line, column; identical issues (same place, same message) once. Stable for equal positions. */
export function sortIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  const unique = issues.filter((i) => {
    const k = JSON.stringify([i.file, i.line, i.column, i.message]);
    return seen.has(k) ? false : (seen.add(k), true);
  });
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return unique.sort((a, b) => cmp(a.file, b.file) || a.line - b.line || a.column - b.column);
}
