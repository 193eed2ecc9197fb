/** Loading and saving the store as a JSON snapshot file; saves are atomic (write a temp file, then rename). */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SandboxStore } from './store.js';

/** Load the snapshot at `file` into the store; false when the file does not exist. */
export function loadStateFile(store: SandboxStore, file: string): boolean {
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
  writeFileSync(temp, JSON.stringify(store.snapshot(), null, 2) + '\n');
  renameSync(temp, file);
}
