#!/usr/bin/env node
/**
 * The docops command line's entry. `main` is callable in-process (tests pass string-collecting streams); run as
 * a program it sets process.exitCode. It answers `--version` itself and imports the dispatcher (run.ts) for
 * everything else: the version needs nothing else, and every module this one imports is paid by every command
 * (docs/dev/benchmarks.md, "Start-up").
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processIO, type CliIO } from './io.js';
import { isVersionFlag, packageVersion } from './version.js';

export async function main(argv: readonly string[], processStreams: CliIO = processIO()): Promise<number> {
  if (isVersionFlag(argv[0])) {
    processStreams.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const { run } = await import('./run.js');
  return run(argv, processStreams);
}

function isDirectRun(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isDirectRun()) {
  process.exitCode = await main(process.argv.slice(2));
}
