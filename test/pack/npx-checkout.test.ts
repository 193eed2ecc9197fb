/**
 * Issue 34 §8: `npx docops` in a checkout starts at once and never rebuilds behind the user's back. npm runs a
 * project's own command (its `bin`) by installing the checkout into its npx cache as a link, which runs the
 * checkout's `prepare` — a whole build, 19–40 s, silent — the first time for each checkout path (a cache that
 * already holds it hides this: the test runs npm with an empty cache of its own). `prepare` builds for `npm ci` and
 * `npm install`, never for `npm exec`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../daemon/build.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

describe('npx docops in the checkout', () => {
  it('the package does not depend on itself (npm would install and build the checkout into itself)', () => {
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain(pkg.name);
  });

  it('runs the checkout’s own build as it is: the answer is its version, and nothing in dist/ was written', () => {
    const bin = join(REPO, 'dist/cli/docops.cjs');
    const before = statSync(bin).mtimeMs;
    // A fresh checkout's first `npx docops`: npm's cache has never seen this checkout.
    const cache = mkdtempSync(join(tmpdir(), 'docops-npm-cache-'));
    try {
      const out = execFileSync('npm', ['exec', '--offline', '--', 'docops', '--version'], {
        cwd: REPO,
        encoding: 'utf8',
        env: { ...process.env, npm_config_update_notifier: 'false', npm_config_cache: cache },
        timeout: 60_000,
      });
      expect(out.trim()).toBe(pkg.version);
      expect(statSync(bin).mtimeMs).toBe(before);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 90_000);
});
