/** Writing exported manifest files below the export directory (their text: text.ts). */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../model/errors.js';
import { refuseLinks, writeInside } from '../write-inside.js';
import type { PlannedFile } from './layout.js';
import { renderManifestFile } from './text.js';

const alreadyExists = (file: string): UsageError =>
  new UsageError(
    `${file} already exists; pass --overwrite to replace it (and the rest of an earlier export), or export into an empty directory`,
  );

/**
 * Files in `dir` (top level) that are named like a part of this export but that it does not write: left from an
 * earlier export of a larger organization (`members-004.yaml`) or of one laid out differently (`members.yaml`
 * next to `members-001.yaml`). Mixed with the new files they would duplicate or resurrect objects.
 */
export async function staleExportFiles(
  dir: string,
  isExportName: (name: string) => boolean,
  files: readonly PlannedFile[],
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const written = new Set(files.map((f) => f.path));
  return names
    .filter((n) => isExportName(n) && !written.has(n))
    .sort()
    .map((n) => path.join(dir, n));
}

/**
 * Write every file below `dir`; an existing file, or a stale part of an earlier export, is an error unless
 * `overwrite` (then stale parts are removed). Returns the paths written and removed.
 */
export async function writeManifestFiles(
  dir: string,
  files: readonly PlannedFile[],
  options: { overwrite: boolean; note: string; schema?: string; stale?: readonly string[]; within?: string },
): Promise<{ written: string[]; removed: string[] }> {
  const stale = options.stale ?? [];
  const root = options.within ?? dir;
  const targets = files.map((f) => path.join(dir, ...f.path.split('/')));
  // Before the first write: no file, and no directory on the way (nor one stale files are removed from), may be a
  // link out of the directory (a members.yaml linking elsewhere would replace that file).
  await refuseLinks(root, [...targets, ...stale]);
  if (stale.length > 0 && !options.overwrite) throw alreadyExists(stale[0]!);
  const written: string[] = [];
  for (const [i, f] of files.entries()) {
    const target = targets[i]!;
    try {
      const content = f.text ?? renderManifestFile(target, f.documents, options.note, options.schema);
      await writeInside(root, target, content, { flag: options.overwrite ? 'w' : 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyExists(target);
      throw err;
    }
    written.push(target);
  }
  for (const file of stale) await rm(file);
  return { written, removed: [...stale] };
}
