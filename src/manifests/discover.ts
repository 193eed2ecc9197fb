/** Finding manifest files: every *.yaml / *.yml below a directory, in a deterministic order. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const MANIFEST_FILE = /\.ya?ml$/i;

/** Directories never searched: hidden ones (.git, .github, …) and node_modules. */
export function isIgnoredDirectory(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * Paths relative to `dir` (with `/` separators), sorted by plain string order so every machine loads the
 * files in the same order. Symlinked files are followed; symlinked directories are not (no cycles).
 */
export async function findManifestFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isIgnoredDirectory(entry.name)) await walk(child);
      } else if (MANIFEST_FILE.test(entry.name)) {
        if (entry.isFile() || (entry.isSymbolicLink() && (await isFile(path.join(dir, child))))) found.push(child);
      }
    }
  };
  await walk('');
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false; // dangling symlink
  }
}

/** How a file is named in messages: relative to the working directory when below it, else as given. */
export function displayPath(dir: string, rel: string): string {
  const joined = path.join(dir, rel);
  if (path.isAbsolute(joined)) {
    const fromCwd = path.relative(process.cwd(), joined);
    if (fromCwd !== '' && !fromCwd.startsWith('..') && !path.isAbsolute(fromCwd)) return fromCwd.split(path.sep).join('/');
  }
  return joined.split(path.sep).join('/');
}
