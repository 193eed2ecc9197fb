/**
 * Vitest global setup: the test suite must leave nothing in the working tree. Before the run it notes every
 * file git does not track (ignored ones included, except node_modules/ and dist/, which the install makes) and
 * the time; after the run any new one fails the run, named, and so does any such file written during the run
 * inside a place that was already there (a `.docops/` left by an earlier run hid a test's write). A test that
 * writes (a delete journal in the default .docops/journal, screenshots, saved plans) must write under os.tmpdir().
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const KEPT = [/^node_modules\//, /^dist\//];

export function untrackedFiles(cwd = process.cwd()): Set<string> {
  const out = execFileSync(
    'git',
    ['ls-files', '--others', '--exclude-standard', '--ignored', '-z', '--directory', '--no-empty-directory'],
    { cwd, encoding: 'utf8' },
  );
  const others = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z'], { cwd, encoding: 'utf8' });
  const paths = [...out.split('\0'), ...others.split('\0')].filter((p) => p !== '' && !KEPT.some((re) => re.test(p)));
  return new Set(paths);
}

/** The untracked paths (files, or files below untracked folders) written at or after `since` (epoch ms). */
export function writtenSince(since: number, cwd = process.cwd()): string[] {
  const written: string[] = [];
  const visit = (path: string): void => {
    const s = statSync(join(cwd, path), { throwIfNoEntry: false });
    if (!s) return;
    if (!s.isDirectory()) {
      if (s.mtimeMs >= since) written.push(path);
      return;
    }
    for (const entry of readdirSync(join(cwd, path))) visit(join(path, entry));
  };
  for (const path of untrackedFiles(cwd)) visit(path.replace(/\/$/, ''));
  return written.sort();
}

export default function setup(): () => void {
  const before = untrackedFiles();
  const started = Date.now();
  return () => {
    const added = [...untrackedFiles()].filter((p) => !before.has(p));
    const inside = writtenSince(started).filter((p) => before.has(p) || [...before].some((b) => p.startsWith(b)));
    if (added.length === 0 && inside.length === 0) return;
    // Vitest reports an error thrown here but still exits 0: set the exit code too.
    process.exitCode = 1;
    throw new Error(
      `the test run left files in the working tree (tests must write under os.tmpdir()): ${[...added, ...inside].join(', ')}`,
    );
  };
}
