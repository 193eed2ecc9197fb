/**
 * Node's compile cache for the installed command (bin.ts turns it on; docs/dev/benchmarks.md, "Start-up"): on Node ≥ 22.1
 * `module.enableCompileCache(dir)` keeps V8's compiled code of the files a command loads between runs, so a short
 * command does not parse and compile its JavaScript again. Node 20 has no such cache, and docops adds none.
 *
 * The directory is per user and must be the user's own and closed to others (in a shared temp directory another
 * user could otherwise plant code for docops to run); anything unusual means compiling as usual, never a failure.
 * Each command keeps its own entries (`profile`): an entry holds the functions of the run that wrote it, and V8
 * deserialises all of them. NODE_DISABLE_COMPILE_CACHE turns it off, as Node documents.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether Node's cache was turned on, or why not. */
export type CompileCacheStatus = 'node' | 'disabled' | 'unusable-directory' | 'unsupported';

export interface CompileCacheOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Which command runs (bin.ts: its first argument when it is a plain word). */
  profile?: string;
  /** Default: `<os temp>/docops-compile-cache-<uid>`. */
  dir?: string;
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

/** Turn Node's cache on for this process's later loads, where Node has one. Never throws. */
export function enableCompileCache(options: CompileCacheOptions = {}): CompileCacheStatus {
  try {
    const api: NodeWithCompileCache = nodeModule;
    if (typeof api.enableCompileCache !== 'function') return 'unsupported';
    if ((options.env ?? process.env).NODE_DISABLE_COMPILE_CACHE) return 'disabled';
    const dir = options.dir ?? defaultCacheDir();
    if (!ownPrivateDirectory(dir)) return 'unusable-directory';
    const profile = options.profile !== undefined && PROFILE.test(options.profile) ? options.profile : 'other';
    api.enableCompileCache(join(dir, profile));
    return 'node';
  } catch {
    return 'unsupported';
  }
}

/** Create `dir` (mode 700) if needed; true only if it is a real directory of this user that no one else can write or read. */
function ownPrivateDirectory(dir: string): boolean {
  try {
    // lstat first: much cheaper than mkdir of an existing directory in a crowded temp
    const st =
      lstatSync(dir, { throwIfNoEntry: false }) ?? (mkdirSync(dir, { recursive: true, mode: 0o700 }), lstatSync(dir));
    if (!st.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return (typeof process.getuid !== 'function' || st.uid === process.getuid()) && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}
