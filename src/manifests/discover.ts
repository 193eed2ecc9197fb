/**
 * Finding manifest files: every *.yaml / *.yml below a directory, in a deterministic order.
 *
 * Symbolic links inside the directory are followed, files and directories alike (git-sync and many CI
 * checkouts make subdirectories symlinks; skipping them silently lost their documents, and with prune on
 * docops then deleted what they describe). A link that dangles, loops or resolves outside the directory
 * (compared by real path, so the directory itself may be a symlink) is a problem of its own, reported at
 * the link and never naming its target: a manifests directory must not be a way to read other files.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import path from 'node:path';

const MANIFEST_FILE = /\.ya?ml$/i;

/** Directories never searched: hidden ones (.git, .github, …) and node_modules. */
export function isIgnoredDirectory(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

export const isManifestFileName = (name: string): boolean => MANIFEST_FILE.test(name);

/** A path (relative to the searched directory, `/` separators) that could not be searched or followed. */
export interface DiscoveryProblem {
  rel: string;
  message: string;
}

export interface Discovery {
  /** Relative paths with `/` separators, sorted by plain string order (the same on every machine). */
  files: string[];
  problems: DiscoveryProblem[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Inside `root` (both real paths)? */
const isInside = (root: string, p: string): boolean =>
  p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * Every manifest file below `dir`, and every link or directory that could not be followed or read. Each
 * directory and file is read once, under the first name that reaches it (entries in sorted order, depth
 * first): a link to a directory that is also in the tree under its own name adds nothing twice.
 */
export async function discoverManifests(dir: string): Promise<Discovery> {
  const files: string[] = [];
  const problems: DiscoveryProblem[] = [];
  const root = await realpath(dir);
  const walked = new Set<string>();
  const seenFiles = new Set<string>();
  const addFile = (rel: string, real: string): void => {
    if (seenFiles.has(real)) return;
    seenFiles.add(real);
    files.push(rel);
  };

  /** `real` is the real path of `rel`; `above` the real paths of the directories being walked (loop check). */
  const walk = async (rel: string, real: string, above: ReadonlySet<string>): Promise<void> => {
    if (walked.has(real)) return;
    walked.add(real);
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (e) {
      problems.push({ rel: rel === '' ? '.' : rel, message: `cannot read directory: ${errorCode(e)}` });
      return;
    }
    entries.sort((a, b) => cmp(a.name, b.name));
    const inside = new Set(above).add(real);
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isIgnoredDirectory(entry.name)) await walk(child, path.join(real, entry.name), inside);
      } else if (entry.isSymbolicLink()) {
        await followLink(child, entry.name, inside);
      } else if (entry.isFile() && isManifestFileName(entry.name)) {
        addFile(child, path.join(real, entry.name));
      }
    }
  };

  const followLink = async (rel: string, name: string, above: ReadonlySet<string>): Promise<void> => {
    const problem = (message: string): void => void problems.push({ rel, message });
    // A link named like an ignored directory (.git, node_modules, .hidden) is skipped like one.
    if (isIgnoredDirectory(name) && !isManifestFileName(name)) return;
    const full = path.join(dir, rel);
    let target: string;
    let isDir: boolean;
    try {
      target = await realpath(full);
      const info = await stat(target);
      isDir = info.isDirectory();
      if (!isDir && !info.isFile()) {
        if (isManifestFileName(name)) problem('symbolic link does not point to a regular file or directory');
        return;
      }
    } catch (e) {
      const code = errorCode(e);
      problem(
        code === 'ENOENT'
          ? 'symbolic link is dangling: what it points to does not exist'
          : code === 'ELOOP'
            ? 'symbolic link loops (it points, through other links, back to itself)'
            : `cannot follow symbolic link: ${code}`,
      );
      return;
    }
    if (!isDir && !isManifestFileName(name)) return; // not a manifest: never read, wherever it points
    if (!isInside(root, target)) {
      problem('symbolic link points outside the manifests directory (only links that stay inside it are followed)');
      return;
    }
    if (!isDir) return addFile(rel, target);
    if (isIgnoredDirectory(name)) return;
    if ([...above].some((a) => isInside(target, a))) {
      problem('symbolic link loops: it points to a directory that contains it');
      return;
    }
    await walk(rel, target, above);
  };

  await walk('', root, new Set());
  files.sort(cmp);
  problems.sort((a, b) => cmp(a.rel, b.rel));
  return { files, problems };
}

/** Just the files (e.g. for a saved plan's checksums); problems are the loader's to report. */
export async function findManifestFiles(dir: string): Promise<string[]> {
  return (await discoverManifests(dir)).files;
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/** How a file is named in messages: relative to the working directory when below it, else as given. */
export function displayPath(dir: string, rel: string): string {
  const joined = path.join(dir, rel);
  if (path.isAbsolute(joined)) {
    const fromCwd = path.relative(process.cwd(), joined);
    if (fromCwd !== '' && !fromCwd.startsWith('..') && !path.isAbsolute(fromCwd))
      return fromCwd.split(path.sep).join('/');
  }
  return joined.split(path.sep).join('/');
}
