/**
 * The manifests' revision, as the status page shows it: the git commit when the directory is inside a git
 * checkout (read from .git ourselves: HEAD, the ref it names, packed-refs; worktrees and submodules through their
 * `gitdir:` file), else a sha256 digest of the manifest files. Never throws: an unreadable repository falls back
 * to the digest, an unreadable directory to null.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { manifestsDigest } from '../../plan-file/digests.js';

export type Revision = { source: 'git'; commit: string; ref?: string } | { source: 'digest'; sha256: string };

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export async function manifestsRevision(dir: string): Promise<Revision | null> {
  const git = await gitCommit(dir).catch(() => undefined);
  if (git) return git;
  try {
    return { source: 'digest', sha256: (await manifestsDigest(dir)).checksum.replace(/^sha256:/, '') };
  } catch {
    return null;
  }
}

async function findGitDir(start: string): Promise<string | undefined> {
  let dir = resolve(start);
  for (;;) {
    const candidate = join(dir, '.git');
    const s = await stat(candidate).catch(() => undefined);
    if (s?.isDirectory()) return candidate;
    if (s?.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(await readFile(candidate, 'utf8'));
      if (m) return isAbsolute(m[1]!.trim()) ? m[1]!.trim() : resolve(dir, m[1]!.trim());
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

async function gitCommit(dir: string): Promise<Revision | undefined> {
  const gitDir = await findGitDir(dir);
  if (!gitDir) return undefined;
  const head = (await readFile(join(gitDir, 'HEAD'), 'utf8')).trim();
  if (SHA.test(head)) return { source: 'git', commit: head };
  const m = /^ref:\s*(refs\/[^\s]+)$/.exec(head);
  if (!m) return undefined;
  const ref = m[1]!;
  if (ref.split('/').some((p) => p === '..' || p === '')) return undefined;
  // A linked worktree keeps its HEAD but shares refs with the main repository (`commondir`).
  const common = await readFile(join(gitDir, 'commondir'), 'utf8').then(
    (t) => resolve(gitDir, t.trim()),
    () => gitDir,
  );
  for (const base of [gitDir, common]) {
    const loose = await readFile(join(base, ref), 'utf8').catch(() => undefined);
    if (loose !== undefined && SHA.test(loose.trim())) return { source: 'git', commit: loose.trim(), ref };
  }
  const packed = await readFile(join(common, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [sha, name] = line.trim().split(' ');
    if (name === ref && sha !== undefined && SHA.test(sha)) return { source: 'git', commit: sha, ref };
  }
  return undefined;
}
