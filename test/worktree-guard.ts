/**
 * Vitest global setup: the test suite must leave nothing in the working tree. Before the run it notes every
 * file git does not track (ignored ones included, except node_modules/ and dist/, which the install makes);
 * after the run any new one fails the run, named. A test that writes (a delete journal in the default
 * .docops/journal, screenshots, saved plans) must write under os.tmpdir().
 */
import { execFileSync } from 'node:child_process';

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

export default function setup(): () => void {
  const before = untrackedFiles();
  return () => {
    const added = [...untrackedFiles()].filter((p) => !before.has(p));
    if (added.length === 0) return;
    // Vitest reports an error thrown here but still exits 0: set the exit code too.
    process.exitCode = 1;
    throw new Error(
      `the test run left files in the working tree (tests must write under os.tmpdir()): ${added.join(', ')}`,
    );
  };
}
