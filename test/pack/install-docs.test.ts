/**
 * What the docs tell a user to run to install docops is what the tests run (issue 23): docops is not on the npm
 * registry, so `npx docops` only means this package inside a checkout (npm runs a project's own command), and
 * the commands of docs/install.md are the ones test/pack/pack.test.ts and the ha message use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBERNETES_CLIENT, KUBERNETES_CLIENT_RANGE } from '../../src/daemon/ha/leadership.js';
import { REPO } from '../daemon/build.js';

const read = (file: string): string => readFileSync(join(REPO, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string> };

/** A markdown file's `## ` sections, each with its heading. */
const sections = (markdown: string): string[] => markdown.split(/^(?=## )/m);

describe('the install docs', () => {
  it('README sends no one to `npx docops` outside a checkout: only in a section that starts from `npm ci`', () => {
    const outside = sections(read('README.md')).filter((s) => s.includes('npx docops') && !s.includes('npm ci'));
    expect(outside.map((s) => s.split('\n')[0])).toEqual([]);
  });

  it('docs/install.md: the tarball the build makes, installed as the pack test installs it', () => {
    const doc = read('docs/install.md');
    expect(pkg.scripts.tarball).toContain('dist-tools/build/release-tarball.js');
    expect(doc).toContain('npm run tarball');
    expect(doc).toContain(`npm install -g ./docops-${pkg.version}.tgz`);
    expect(read('README.md')).toContain(`npm install -g ./docops-${pkg.version}.tgz`);
  });

  it('docs/install.md: the Kubernetes client command is the one the ha message gives', () => {
    const doc = read('docs/install.md');
    expect(doc).toContain(`npm install -g ${KUBERNETES_CLIENT}@${KUBERNETES_CLIENT_RANGE}`);
    expect(doc).toContain(`ha: {mode: kubernetes} needs ${KUBERNETES_CLIENT}`);
  });
});
