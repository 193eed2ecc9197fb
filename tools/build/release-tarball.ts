/**
 * Release step (`npm run tarball`): docops-VERSION.tgz, the package users install with
 * `npm install -g ./docops-VERSION.tgz` and the one the container image installs (Dockerfile). Packs the
 * current build; `npm run tarball` builds first.
 *
 * It is `npm pack` of a staged copy, not of the checkout, for two things the checkout's package.json must keep:
 * - `scripts.prepare` builds dist/ on `npm ci` in a checkout (and in the GitHub Action), but npm 11 lists any
 *   `prepare` of a package installed from a file as an install script "not yet covered by allowScripts" and
 *   warns on every install. The staged package.json has no scripts: nothing of them runs once installed.
 * - The dependencies users get are the ones CI tested: the lockfile, without the dev dependencies, ships as
 *   npm-shrinkwrap.json, which npm honours when it installs the package (npm docs: meant for command-line
 *   tools). @kubernetes/client-node stays optional in it (`--omit=optional` leaves it out: no `ha`).
 * The files are the ones `npm pack` would take from the checkout (package.json `files`), and the shrinkwrap.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * The package.json users install: no scripts, no dev dependencies, and nothing of the checkout's layout: its
 * workspaces (the sandbox is bundled into the CLI) and its own imports (#src/…, for the tools).
 */
export function releaseManifest(pkg: Record<string, unknown>): Record<string, unknown> {
  const { scripts: _scripts, devDependencies: _dev, workspaces: _workspaces, imports: _imports, ...rest } = pkg;
  return rest;
}

/**
 * What to stage: the top-level entry of each package.json `files` pattern, and the files npm always packs; `npm
 * pack` of the stage then applies the patterns themselves. The checkout is never packed: npm 10 (the node:22
 * images') runs its `prepare`, the whole build, on `npm pack` even with --ignore-scripts.
 */
export function stagedEntries(pkg: { files?: string[] }, root: string): string[] {
  const named = (pkg.files ?? []).map((pattern) => pattern.split('/')[0]!);
  const always = readdirSync(root).filter((name) => /^(readme|license|licence)(\.|$)/i.test(name));
  return [...new Set([...named, ...always])].filter((name) => existsSync(join(root, name)));
}

interface Lockfile {
  packages: Record<string, { dev?: boolean; link?: boolean }>;
}

/**
 * The checkout's lockfile less what only the checkout installs: the dev-only packages (the HA client among them:
 * an optional peer, a dev dependency for the tests), the link of the package to itself and the workspace
 * packages (links, and their folders). `npm install --package-lock-only` then prunes the rest; left to itself,
 * npm 10 keeps an optional peer the lockfile has.
 */
export function releaseLock<T extends Lockfile>(lock: T): T {
  const installed = (path: string): boolean => path.startsWith('node_modules/') || path.includes('/node_modules/');
  const packages = Object.fromEntries(
    Object.entries(lock.packages).filter(
      ([path, entry]) => path === '' || (installed(path) && entry.dev !== true && entry.link !== true),
    ),
  );
  const { workspaces: _workspaces, ...root } = (packages[''] ?? {}) as Record<string, unknown>;
  return { ...lock, packages: { ...packages, '': root } };
}

/** Packs the current build of `root` into `destination`; returns the tarball's path. */
export function packRelease(destination: string, root = ROOT): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown> & {
    files?: string[];
  };
  const stage = mkdtempSync(join(tmpdir(), 'docops-release-'));
  try {
    for (const name of stagedEntries(pkg, root)) cpSync(join(root, name), join(stage, name), { recursive: true });
    writeFileSync(join(stage, 'package.json'), JSON.stringify(releaseManifest(pkg), null, 2) + '\n');
    // npm prunes the lockfile to what that package.json needs (offline: the versions stay the locked ones).
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lockfile;
    writeFileSync(join(stage, 'package-lock.json'), JSON.stringify(releaseLock(lock), null, 2) + '\n');
    npm(['install', '--package-lock-only', '--ignore-scripts', '--offline'], stage);
    const pruned = JSON.parse(readFileSync(join(stage, 'package-lock.json'), 'utf8')) as Lockfile;
    const optionalPeers = Object.keys((pkg.peerDependenciesMeta ?? {}) as object).filter(
      (name) => pruned.packages[`node_modules/${name}`] !== undefined,
    );
    if (optionalPeers.length > 0)
      throw new Error(
        `the release's shrinkwrap would install the optional peer dependencies ${optionalPeers.join(', ')}`,
      );
    renameSync(join(stage, 'package-lock.json'), join(stage, 'npm-shrinkwrap.json'));
    mkdirSync(destination, { recursive: true });
    const [info] = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', resolve(destination)], stage),
    ) as { filename: string }[];
    return join(resolve(destination), info!.filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = packRelease(process.argv[2] ?? process.cwd());
  process.stdout.write(`${out}\n`);
}
