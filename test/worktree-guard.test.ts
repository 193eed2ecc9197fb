import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { untrackedFiles, writtenSince } from './worktree-guard.js';

let repo: string | undefined;
afterEach(() => repo && rmSync(repo, { recursive: true, force: true }));

it('sees new files, ignored ones included, but not node_modules/ and dist/', () => {
  repo = mkdtempSync(join(tmpdir(), 'docops-guard-'));
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(join(repo, '.gitignore'), '.docops/\nnode_modules/\ndist/\n');
  const before = untrackedFiles(repo);
  mkdirSync(join(repo, '.docops/journal'), { recursive: true });
  writeFileSync(join(repo, '.docops/journal/j.jsonl'), '{}');
  writeFileSync(join(repo, 'stray.json'), '{}');
  mkdirSync(join(repo, 'node_modules/x'), { recursive: true });
  writeFileSync(join(repo, 'node_modules/x/index.js'), '');
  const added = [...untrackedFiles(repo)].filter((p) => !before.has(p)).sort();
  expect(added).toEqual(['.docops/', 'stray.json']);
});

it('sees a file written inside an untracked folder that was already there (an earlier run hid it)', () => {
  repo = mkdtempSync(join(tmpdir(), 'docops-guard-'));
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(join(repo, '.gitignore'), '.docops/\nnode_modules/\n');
  mkdirSync(join(repo, '.docops'), { recursive: true });
  writeFileSync(join(repo, '.docops/old.json'), '{}');
  utimesSync(join(repo, '.docops/old.json'), 1, 1);
  const since = Date.now();
  expect(writtenSince(since, repo)).toEqual([]);
  writeFileSync(join(repo, '.docops/journal.expectations.json'), '{}');
  mkdirSync(join(repo, 'node_modules/x'), { recursive: true });
  writeFileSync(join(repo, 'node_modules/x/index.js'), '');
  expect(writtenSince(since, repo)).toEqual(['.docops/journal.expectations.json']);
});
