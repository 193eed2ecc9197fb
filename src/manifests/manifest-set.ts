/**
 * Which of the discovered files are manifests and which are data named by `{file}` (data-files.ts). Each file is
 * read once. Those whose text says `docops/v1` — every manifest does: its apiVersion — are parsed first; their
 * references name the data files, which are never parsed as manifests (a spec is neither YAML docops reads nor
 * text it interpolates, and may be far larger than a manifest). The other files are parsed unless a manifest
 * names them, so a stray file still gets its own message. A referenced file that is a manifest stays one and the
 * reference is the error: before, it silently left the set, and a prune deleted what it described.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ValidationIssue } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import { readFileRefs, type FileRefs } from './data-files.js';
import { DEFAULT_MAX_FILE_BYTES, tooLargeMessage } from './decode.js';
import { API_VERSION } from './envelope.js';
import { findFileRefs } from './file-refs.js';
import type { ParseOptions, ParseResult } from './parse.js';

export type ParseManifest = (file: string, bytes: Uint8Array, opts: ParseOptions) => ParseResult | Promise<ParseResult>;

interface Found {
  /** Display path. */
  file: string;
  /** The bytes, when within the manifest size limit, until parsed. */
  bytes?: Buffer;
  /** Why it is not read: too large for a manifest (it may still be data), or unreadable. */
  unread?: string;
  parsed?: ParseResult;
  /** Once parsed: whether it is a docops manifest. */
  manifest?: boolean;
}

export interface ManifestSet {
  /** The manifests as parsed, each file's problems with them (data files left out). */
  files: ParseResult[];
  refs: FileRefs;
}

/** An apiVersion naming docops/v1, in block, flow or JSON style: how a manifest whose YAML does not parse is known. */
const MANIFEST_TEXT = /["']?\bapiVersion["']?\s*:\s*["']?docops\/v1\b/;
const MARK = Buffer.from(API_VERSION);

export async function readManifestSet(
  files: readonly string[],
  root: string,
  kinds: ReadonlyMap<string, KindDefinition>,
  parse: ParseManifest,
  opts: ParseOptions & { reserved?: ReadonlyMap<string, string>; secrets?: readonly string[] },
): Promise<ManifestSet> {
  const { reserved, secrets, ...parseOpts } = opts;
  const parseOne = async (f: Found): Promise<void> => {
    f.parsed = await parse(f.file, f.bytes!, parseOpts);
    f.manifest = holdsManifest(f.parsed, f.bytes!);
    f.bytes = undefined; // not held while the others parse
  };
  const parseAll = (list: Found[]) => Promise.all(list.map(parseOne));
  // A file that says docops/v1 is parsed as soon as it is read (as fast as reading and parsing each in turn); the
  // others wait until the manifests' references say which of them are data.
  const found = await Promise.all(
    files.map(async (file) => {
      const f = await readOnce(file, parseOpts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
      if (f.bytes?.includes(MARK)) await parseOne(f);
      return f;
    }),
  );
  const docs = () => found.flatMap((f) => f.parsed?.documents ?? []);
  const reals = new RealPaths();
  const firstRefs = findFileRefs(docs(), kinds);
  const named = new Set(await Promise.all(firstRefs.map((r) => reals.of(r.absolute))));
  const unnamed = async (f: Found): Promise<boolean> => named.size === 0 || !named.has(await reals.of(f.file));
  await parseAll(await filterAsync(found, async (f) => f.bytes !== undefined && (await unnamed(f))));
  const refs = findFileRefs(docs(), kinds);
  const byReal = new Map<string, Found>();
  if (refs.length > 0) for (const f of found) byReal.set(await reals.of(f.file), f);
  const realReserved = new Map<string, string>();
  for (const [file, what] of reserved ?? []) realReserved.set(await reals.of(file), what);
  const data = await readFileRefs(refs, root, {
    manifest: (real, text) => {
      const f = byReal.get(real);
      if (!f) return undefined;
      // Parsed: its documents say; read but not parsed: it never says docops/v1; too large to read: its text says.
      const isManifest = f.manifest ?? (text !== undefined && f.unread !== undefined && MANIFEST_TEXT.test(text));
      return isManifest ? f.file : undefined;
    },
    reserved: realReserved,
    ...(secrets ? { secrets } : {}),
  });
  const kept =
    data.referenced.size === 0
      ? found
      : await filterAsync(found, async (f) => !data.referenced.has(await reals.of(f.file)));
  // A file left unparsed because a reference named it, which then did not read it as data (e.g. written as an
  // absolute path): parsed now, as the manifest it is taken for.
  await parseAll(kept.filter((f) => f.bytes !== undefined));
  return { files: kept.map((f) => f.parsed ?? unreadFile(f)), refs: data };
}

/** Whether a parsed file is a manifest: a document says so, or (when its YAML did not parse) its text does. */
function holdsManifest(parsed: ParseResult, bytes: Buffer): boolean {
  if (
    parsed.documents.some(
      (d) =>
        typeof d.value === 'object' &&
        d.value !== null &&
        (d.value as Record<string, unknown>)['apiVersion'] === API_VERSION,
    )
  )
    return true;
  return parsed.issues.length > 0 && MANIFEST_TEXT.test(bytes.toString('utf8'));
}

async function readOnce(file: string, max: number): Promise<Found> {
  try {
    const { size } = await stat(file);
    // Checked before reading: a file this large is read only if a manifest names it as data (with its own limit).
    if (size > max) return { file, unread: tooLargeMessage(size, max) };
    return { file, bytes: await readFile(file) };
  } catch (e) {
    // E.g. deleted between discovery and reading (a watched directory) or unreadable: an issue, not a crash.
    return { file, unread: `cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
}

function unreadFile(f: Found): ParseResult {
  const issue: ValidationIssue = { file: f.file, line: 1, column: 1, message: f.unread ?? 'file was not read' };
  return { documents: [], issues: [issue] };
}

/** Real paths (links resolved), each asked of the file system once; a path that cannot be resolved stands for itself. */
class RealPaths {
  private readonly known = new Map<string, Promise<string>>();
  of(file: string): Promise<string> {
    let p = this.known.get(file);
    if (!p) {
      p = realpath(file).catch(() => path.resolve(file));
      this.known.set(file, p);
    }
    return p;
  }
}

async function filterAsync<T>(list: readonly T[], keep: (t: T) => Promise<boolean>): Promise<T[]> {
  const keeps = await Promise.all(list.map(keep));
  return list.filter((_, i) => keeps[i]);
}
