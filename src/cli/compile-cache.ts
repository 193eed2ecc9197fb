/**
 * A V8 code cache for the installed command (bin.ts turns it on; docs/dev/benchmarks.md, "Start-up"). Compiling the
 * bundle's JavaScript is a large part of a short command's CPU; with the cache, V8 deserialises the bytecode of
 * the previous run instead of parsing and compiling again.
 *
 * - Node ≥ 22.1: `module.enableCompileCache(dir)`, Node's own.
 * - Node 20 has no compile cache for modules. The bundle is CommonJS, so the CommonJS files under the package
 *   root (the bundle's chunks, the generated validators, the packages it loads from its node_modules) are
 *   compiled here with `vm.Script` and `cachedData`; scripts that had no usable cache are serialised when the
 *   process exits, with the functions the run compiled. Files elsewhere load as usual.
 *
 * A cache entry is named by the file's identity, size and modification time (entryName), so a rebuilt or
 * upgraded file never meets old bytecode (V8 itself only checks the text's length, its version and flags). The directory is per user and must be the user's own
 * and closed to others; anything unusual (no directory, not writable, foreign owner, a corrupt entry) means
 * compiling as usual, never a failure. NODE_DISABLE_COMPILE_CACHE turns it off, as it does Node's own; with
 * source maps on (--enable-source-maps) Node's loader is left alone so stack traces keep their src/ lines.
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as vmConstants, Script } from 'node:vm';

/** What `enableCompileCache` returned, or why no cache is used. */
export type CompileCacheStatus = 'node' | 'docops' | 'disabled' | 'source-maps' | 'unusable-directory' | 'unsupported';

export interface CompileCacheOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Which command runs (bin.ts: its first argument when it is a plain word). Each command keeps entries of its own:
   * an entry holds the functions of the run that wrote it, and V8 deserialises all of them, so `validate` reading
   * entries `plan` wrote (with the diff, fetch and client code) took ~12 % longer than with its own.
   */
  profile?: string;
  /** Default: `<os temp>/docops-compile-cache-<uid>`. */
  dir?: string;
  /** Files under this directory are cached (Node 20). Default: the package root (this module is two levels below it). */
  root?: string;
}

/** The per-user default directory. */
export function defaultCacheDir(): string {
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  return join(tmpdir(), `docops-compile-cache-${user}`);
}

/** A profile is a directory name: a command's name, nothing a path could be made of. */
const PROFILE = /^[a-z][a-z-]{0,31}$/;

/** Node ≥ 22.1's API (absent from Node 20 and its types). */
type NodeWithCompileCache = typeof nodeModule & { enableCompileCache?: (dir?: string) => unknown };

/** Turn the cache on for this process's later loads. Never throws. */
export function enableCompileCache(options: CompileCacheOptions = {}): CompileCacheStatus {
  try {
    const env = options.env ?? process.env;
    if (env.NODE_DISABLE_COMPILE_CACHE) return 'disabled';
    if (process.sourceMapsEnabled) return 'source-maps';
    const dir = options.dir ?? defaultCacheDir();
    if (!ownPrivateDirectory(dir)) return 'unusable-directory';
    const profile = options.profile !== undefined && PROFILE.test(options.profile) ? options.profile : 'other';
    const api: NodeWithCompileCache = nodeModule;
    if (typeof api.enableCompileCache === 'function') {
      api.enableCompileCache(join(dir, profile));
      return 'node';
    }
    const root = options.root ?? dirname(dirname(dirname(fileURLToPath(import.meta.url))));
    return installScriptCache(join(dir, `${process.version}-${process.arch}`, profile), root.endsWith(sep) ? root : root + sep);
  } catch {
    return 'unsupported';
  }
}

/** Create `dir` (mode 700) if needed; true only if it is a real directory of this user that no one else can write or read. */
function ownPrivateDirectory(dir: string): boolean {
  try {
    const st = existing(dir) ?? (mkdirSync(dir, { recursive: true, mode: 0o700 }), lstatSync(dir));
    if (!st.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return (typeof process.getuid !== 'function' || st.uid === process.getuid()) && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** lstat, or undefined when nothing is there (a stat is much cheaper than mkdir of an existing directory in a crowded temp). */
function existing(path: string): Stats | undefined {
  return lstatSync(path, { throwIfNoEntry: false });
}

/** The parts of a CommonJS module the loader hands to `_compile` (not in @types/node). */
interface CompilingModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}

/**
 * The cache entry of a file: its name, identity (device, inode), size and modification time, and the text's
 * length. Any rewrite of the file (a rebuild, an upgrade) changes one of them. Hashing the text would be safer
 * against a same-sized, same-time rewrite, but the hash module (node:crypto) costs more to load (~3.5 ms) than
 * the cache saves on a small command.
 */
function entryName(filename: string, content: string): string {
  return `${identityOf(filename)}${content.length}`;
}

/** The part of an entry's name that the file as it is now gives (its name, identity, size and time). */
function identityOf(filename: string): string {
  const st = statSync(filename);
  return `${basename(filename)}-${st.dev}-${st.ino}-${st.size}-${st.mtimeMs}-`;
}

/** Beside a profile's entries: which file each entry was made from, so stale entries can be removed. */
const SOURCES = 'sources.json';

/**
 * After a run wrote entries (a rebuild, an upgrade, a first run), the entries of files that are gone or have
 * changed since are removed: without this every build or upgrade left a set of entries behind for good. Entries
 * the index does not name (made by an older docops) are left alone. Best effort: any failure leaves things as
 * they are, and two processes writing the index at once only lose an entry's name (it is then never removed).
 */
function pruneStale(dir: string, written: ReadonlyMap<string, string>): void {
  const index = new Map<string, string>();
  try {
    const read: unknown = JSON.parse(readFileSync(join(dir, SOURCES), 'utf8'));
    if (typeof read === 'object' && read !== null) for (const [entry, source] of Object.entries(read)) if (typeof source === 'string') index.set(entry, source);
  } catch {
    // no index yet, or an unreadable one: start a new one
  }
  for (const [entry, source] of written) index.set(entry, source);
  for (const [entry, source] of index) {
    if (written.has(entry)) continue;
    let current: string | undefined;
    try {
      current = identityOf(source);
    } catch {
      current = undefined; // the file is gone
    }
    if (current !== undefined && entry.startsWith(current)) continue;
    index.delete(entry);
    // Only a plain name in this directory: the index is ours, but never let it name another file.
    if (entry === SOURCES || entry.includes('/') || entry.includes('\\') || entry.startsWith('.')) continue;
    try {
      unlinkSync(join(dir, entry));
    } catch {
      // already gone (another process pruned it)
    }
  }
  const tmp = join(dir, `${SOURCES}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(Object.fromEntries(index)), { mode: 0o600 });
  renameSync(tmp, join(dir, SOURCES));
}

const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_END = '\n})';

function installScriptCache(dir: string, root: string): CompileCacheStatus {
  const proto: Partial<CompilingModule> = nodeModule.Module.prototype;
  const original = proto._compile;
  if (typeof original !== 'function') return 'unsupported';
  try {
    if (!existing(dir)) mkdirSync(dir, { mode: 0o700, recursive: true });
  } catch {
    return 'unusable-directory';
  }
  const toWrite: { script: Script; file: string; source: string }[] = [];
  proto._compile = function compileWithCache(this: CompilingModule, content: string, filename: string): unknown {
    if (!filename.startsWith(root)) return original.call(this, content, filename);
    let script: Script;
    let file: string;
    try {
      file = join(dir, entryName(filename, content));
      let cachedData: Buffer | undefined;
      try {
        cachedData = readFileSync(file);
      } catch {
        cachedData = undefined;
      }
      // A first line `#!…` is a comment only at the very start of a script; the wrapper comes first here.
      const body = content.startsWith('#!') ? `//${content.slice(2)}` : content;
      script = new Script(WRAPPER_START + body + WRAPPER_END, {
        filename,
        columnOffset: -WRAPPER_START.length,
        ...(cachedData ? { cachedData } : {}),
        importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      if (cachedData === undefined || script.cachedDataRejected === true) toWrite.push({ script, file, source: filename });
    } catch {
      return original.call(this, content, filename); // e.g. a syntax error: Node's loader reports it as usual
    }
    const fn = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    // `require` as Node's loader makes it: through this module (parent and children kept), resolve/cache/main from createRequire
    const req = Object.assign(this.require.bind(this), nodeModule.createRequire(filename));
    return fn.call(this.exports, this.exports, req, this, filename, dirname(filename));
  };
  process.once('exit', () => {
    const written = new Map<string, string>();
    for (const { script, file, source } of toWrite) {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, file);
        written.set(basename(file), source);
      } catch {
        // a full or read-only disk: the next run compiles again
      }
    }
    if (written.size === 0) return;
    try {
      pruneStale(dir, written);
    } catch {
      // best effort (see pruneStale)
    }
  });
  return 'docops';
}
