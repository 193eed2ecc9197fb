/**
 * Loading and saving the store as a JSON snapshot file; saves are atomic (write a temp file, then rename). The
 * file is never written through a symbolic link (docops's rule for every file it writes): a state file that is a
 * link is refused when the sandbox starts, the temp file is created new (O_EXCL, which never follows a link), and
 * the rename replaces a directory entry, never a file a link names.
 */
import { existsSync, lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SandboxStore } from './store.js';

/** Load the snapshot at `file` into the store; false when the file does not exist. */
export function loadStateFile(store: SandboxStore, file: string): boolean {
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink())
    throw new Error(
      `${file} is a symbolic link; the sandbox writes no state file through a link (remove it, or name another file)`,
    );
  if (!existsSync(file)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read sandbox state file ${file}: ${(err as Error).message}`, { cause: err });
  }
  store.load(parsed);
  return true;
}

let tempCounter = 0;

export function saveStateFile(store: SandboxStore, file: string): void {
  const temp = `${file}.${process.pid}.${++tempCounter}.tmp`;
  writeFileSync(temp, JSON.stringify(store.snapshot(), null, 2) + '\n', { flag: 'wx' });
  renameSync(temp, file);
}
