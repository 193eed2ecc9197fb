/**
 * Symbolic links in the manifests tree (git-sync and CI checkouts make them): files and directories are
 * followed; a link that dangles, loops or leaves the tree is an issue at the link that never names its target.
 */
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { discoverManifests, findManifestFiles } from '../../src/manifests/discover.js';
import { loadManifests } from '../../src/manifests/index.js';
import { fakeTeamKind } from './fake-kinds.js';
import { issueLines } from './helpers.js';

const TEAM = (title: string): string =>
  `apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: ${title}\n`;

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'docops-links-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A git-sync layout: `root` is a link to a versioned checkout whose `teams` subdirectory is a link too. */
async function gitSyncTree(): Promise<string> {
  const rev = path.join(base, 'rev-1');
  const shared = path.join(base, 'shared-teams');
  await mkdir(rev);
  await mkdir(shared);
  await writeFile(path.join(rev, 'org.yaml'), TEAM('Root'));
  await writeFile(path.join(shared, 'platform.yaml'), TEAM('Platform'));
  await mkdir(path.join(rev, 'more'));
  await symlink(path.join(rev, 'more'), path.join(rev, 'linked-more'));
  await writeFile(path.join(rev, 'more', 'core.yaml'), TEAM('Core'));
  await symlink(rev, path.join(base, 'root'));
  return path.join(base, 'root');
}

describe('symbolic links inside the manifests directory', () => {
  test('a root that is a link, symlinked directories and files inside it are followed', async () => {
    const root = await gitSyncTree();
    await mkdir(path.join(root, 'sub'));
    await symlink('../more/core.yaml', path.join(root, 'sub', 'core-link.yml'));
    await writeFile(path.join(root, 'sub', 'other.yaml'), TEAM('Other'));
    await symlink(path.join(root, 'sub'), path.join(root, 'a-sub'));
    // Each file once, under the first name reaching it (sorted, depth first).
    expect(await findManifestFiles(root)).toEqual(['a-sub/core-link.yml', 'a-sub/other.yaml', 'org.yaml']);
  });

  test('the documents below a symlinked subdirectory are loaded (git-sync: root/current -> .worktrees/HASH)', async () => {
    // Before, `current` was not followed and `.worktrees` is hidden: no document at all was loaded.
    const root = path.join(base, 'git');
    await mkdir(path.join(root, '.worktrees', 'abc123', 'teams'), { recursive: true });
    await writeFile(path.join(root, '.worktrees', 'abc123', 'org.yaml'), TEAM('Root'));
    await writeFile(path.join(root, '.worktrees', 'abc123', 'teams', 'core.yaml'), TEAM('Core'));
    await symlink('.worktrees/abc123', path.join(root, 'current'));
    const { desired } = await loadManifests(root, [fakeTeamKind()], { env: {} });
    expect(desired.get('Team')!.map((e) => `${path.relative(root, e.source.file)} ${e.key}`)).toEqual([
      'current/org.yaml Root',
      'current/teams/core.yaml Core',
    ]);
  });

  test('a dangling link (file or directory), a loop and a link out of the tree are issues at the link', async () => {
    const root = path.join(base, 'm');
    const outside = path.join(base, 'secret-place');
    await mkdir(path.join(root, 'sub'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(outside, 'leak.yaml'), 'token: hunter2-very-secret\n');
    await writeFile(path.join(root, 'ok.yaml'), TEAM('Ok'));
    await symlink(path.join(base, 'gone.yaml'), path.join(root, 'dangling.yaml'));
    await symlink(path.join(base, 'gone-dir'), path.join(root, 'dangling-dir'));
    await symlink('self', path.join(root, 'self'));
    await symlink('..', path.join(root, 'sub', 'up'));
    await symlink(outside, path.join(root, 'elsewhere'));
    await symlink(path.join(outside, 'leak.yaml'), path.join(root, 'leak.yaml'));
    await symlink(path.join(outside, 'leak.yaml'), path.join(root, 'notes.txt')); // not a manifest: never read
    const { files, problems } = await discoverManifests(root);
    expect(files).toEqual(['ok.yaml']);
    expect(problems).toEqual([
      { rel: 'dangling-dir', message: 'symbolic link is dangling: what it points to does not exist' },
      { rel: 'dangling.yaml', message: 'symbolic link is dangling: what it points to does not exist' },
      {
        rel: 'elsewhere',
        message: 'symbolic link points outside the manifests directory (only links that stay inside it are followed)',
      },
      {
        rel: 'leak.yaml',
        message: 'symbolic link points outside the manifests directory (only links that stay inside it are followed)',
      },
      { rel: 'self', message: 'symbolic link loops (it points, through other links, back to itself)' },
      { rel: 'sub/up', message: 'symbolic link loops: it points to a directory that contains it' },
    ]);
    const rel = path.relative(process.cwd(), root);
    const lines = await issueLines(loadManifests(rel, [fakeTeamKind()], { env: {} }));
    expect(lines).toEqual(problems.map((p) => `${rel}/${p.rel}:1:1: ${p.message}`));
    // Neither the targets' paths nor their contents appear.
    for (const line of lines) {
      expect(line).not.toContain('secret-place');
      expect(line).not.toContain('gone');
      expect(line).not.toContain('hunter2');
    }
    expect(await readFile(path.join(outside, 'leak.yaml'), 'utf8')).toContain('hunter2'); // the file was there to leak
  });

  test('an unreadable subdirectory is an issue, not a crash', async () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const root = path.join(base, 'm');
    await mkdir(path.join(root, 'locked'), { recursive: true });
    await writeFile(path.join(root, 'ok.yaml'), TEAM('Ok'));
    const { chmod } = await import('node:fs/promises');
    await chmod(path.join(root, 'locked'), 0o000);
    try {
      expect((await discoverManifests(root)).problems).toEqual([
        { rel: 'locked', message: 'cannot read directory: EACCES' },
      ]);
    } finally {
      await chmod(path.join(root, 'locked'), 0o755);
    }
  });
});
