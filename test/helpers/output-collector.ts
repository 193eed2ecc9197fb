/**
 * Secret-scanning output collection for tests.
 *
 *   const out = new OutputCollector(['tok-SECRET-…']);
 *   const code = await main(argv, out.io(env));   // or: await runCliCollecting(argv, env, secrets)
 *   out.addPath(planFile);                          // files and directories the run wrote
 *   expect(out.leaks()).toEqual([]);
 *
 * A secret counts as leaked when it appears whole, URL-encoded, JSON-escaped (a multi-line certificate in a
 * JSON answer), or as any fragment of FRAGMENT characters
 * or more (so a "redacted" token that still prints its first 16 characters is caught). Fragments shorter
 * than the whole secret are only checked for secrets of at least MIN_SECRET_FOR_FRAGMENTS characters, to
 * keep short secrets from matching ordinary words.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';

export const FRAGMENT = 12;
const MIN_SECRET_FOR_FRAGMENTS = 20;

export interface SecretLeak {
  /** `stdout`, `stderr`, or a file path. */
  where: string;
  secret: string;
  /** What was found: the whole secret, its URL-encoded or JSON-escaped form, or a fragment. */
  found: string;
}

/** Every leak of `secrets` in `text`. */
export function findLeaks(text: string, secrets: readonly string[], where: string): SecretLeak[] {
  const out: SecretLeak[] = [];
  for (const secret of secrets) {
    if (secret === '') continue;
    const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
    if (secret.length >= MIN_SECRET_FOR_FRAGMENTS) {
      for (let i = 0; i + FRAGMENT <= secret.length; i++) forms.add(secret.slice(i, i + FRAGMENT));
    }
    const found = [...forms].find((f) => text.includes(f));
    if (found !== undefined) out.push({ where, secret, found });
  }
  return out;
}

/** Leaks in a file, or in every file below a directory. */
export function scanPath(path: string, secrets: readonly string[]): SecretLeak[] {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return [];
  if (st.isDirectory()) return readdirSync(path).flatMap((name) => scanPath(join(path, name), secrets));
  return findLeaks(readFileSync(path, 'latin1'), secrets, path);
}

export class OutputCollector {
  stdout = '';
  stderr = '';
  private readonly paths: string[] = [];

  constructor(readonly secrets: readonly string[]) {}

  /** Streams for main(): collected here, never TTYs (so no colour). */
  io(env: Record<string, string | undefined> = {}): CliIO {
    return {
      stdout: { write: (c: string) => void (this.stdout += c), isTTY: false },
      stderr: { write: (c: string) => void (this.stderr += c), isTTY: false },
      env,
    };
  }

  /** A file or directory the run wrote (plan files, journals …), scanned by leaks(). */
  addPath(path: string): void {
    this.paths.push(path);
  }

  /** Leaks of the constructor's secrets, or of `secrets` (for secrets only known after the run, e.g. created by it). */
  leaks(secrets: readonly string[] = this.secrets): SecretLeak[] {
    return [
      ...findLeaks(this.stdout, secrets, 'stdout'),
      ...findLeaks(this.stderr, secrets, 'stderr'),
      ...this.paths.flatMap((p) => scanPath(p, secrets)),
    ];
  }
}

export interface CollectedRun {
  code: number;
  stdout: string;
  stderr: string;
  collector: OutputCollector;
  leaks(secrets?: readonly string[]): SecretLeak[];
}

/** Run the CLI in-process with a collector watching for `secrets`. */
export async function runCliCollecting(
  argv: string[],
  env: Record<string, string | undefined>,
  secrets: readonly string[],
): Promise<CollectedRun> {
  const collector = new OutputCollector(secrets);
  const code = await main(argv, collector.io(env));
  return {
    code,
    stdout: collector.stdout,
    stderr: collector.stderr,
    collector,
    leaks: (secrets) => collector.leaks(secrets),
  };
}
