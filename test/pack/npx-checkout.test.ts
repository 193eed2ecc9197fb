/**
 * Issue 34 §8: `npx docops` in a checkout starts at once and never rebuilds behind the user's back. npm runs a
 * project's own command (its `bin`) when its name is asked for; a dependency of the package on itself made npm
 * install the checkout into itself first and run its `prepare` (a whole build, 22–40 s, silent).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
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
    const out = execFileSync('npm', ['exec', '--offline', '--', 'docops', '--version'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
      timeout: 60_000,
    });
    expect(out.trim()).toBe(pkg.version);
    expect(statSync(bin).mtimeMs).toBe(before);
  }, 90_000);
});
