/**
 * The documentation a user reads: the README's first screen says what docops is for and shows the road (try →
 * connect → import → review → run) with the two commands a newcomer needs. The user docs (README, docs/*.md,
 * deploy/docker-run.md) speak to users: they name no `src/` or `test/` path and no identifier of docops's code —
 * those notes live in the contributor docs (CONTRIBUTING.md, docs/dev/). In every one of them, user or contributor,
 * each relative link names a file the repository has and each #anchor a heading of that file (as GitHub makes its
 * slugs), and each repository path written as text names a file that is there.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, brokenLinks, codePaths, exportedIdentifiers, missingPaths } from './doc-rules.js';

const markdownIn = (dir: string): string[] =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${dir}/${f}`);

/** What a user reads. */
export const USER_DOCS = ['README.md', ...markdownIn('docs'), 'deploy/docker-run.md'];
/** What someone working on docops reads: free to name sources, tests and identifiers. */
export const CONTRIBUTOR_DOCS = ['CONTRIBUTING.md', ...markdownIn('docs/dev')];

const read = (doc: string): string => readFileSync(join(ROOT, doc), 'utf8');

describe('the README', () => {
  const text = read('README.md');
  const firstScreen = text.split('\n').slice(0, 40).join('\n');

  it('says what docops is for and starts with the two commands', () => {
    expect(firstScreen).toMatch(/GitOps for a GitBook organization/);
    expect(firstScreen).toContain('https://api.gitbook.com/v1');
    const block = /```sh\n([\s\S]*?)```/.exec(firstScreen)?.[1] ?? '';
    expect(
      block
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('#')[0]!.trim()),
    ).toEqual(['npm ci && npm start', 'npm test']);
  });

  it('shows the road on its first screen, in order', () => {
    const steps = ['Try', 'Connect', 'Import', 'Review', 'Run'].map((s) => firstScreen.indexOf(`**${s}**`));
    expect(steps.every((i) => i > 0)).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  });
});

describe('the user documentation speaks to users', () => {
  const identifiers = exportedIdentifiers();

  it('the checks find what they look for (a planted source path, identifier, missing file)', () => {
    const planted =
      'Settled by `SETTLE_DELAYS_MS` (src/engine/settle.ts, held by test/engine/settle.test.ts); see docs/gone.md.';
    expect(codePaths(planted)).toEqual(['src/engine/settle.ts', 'test/engine/settle.test.ts']);
    expect(identifiers.has('SETTLE_DELAYS_MS')).toBe(true);
    expect(missingPaths(planted)).toEqual(['docs/gone.md']);
    expect(codePaths('https://github.com/a/b/tree/main/src/x and latest/ and node_modules/y/src/z')).toEqual([]);
    expect(brokenLinks('[x](nowhere.md) [y](#no-such-heading)', join(ROOT, 'README.md'))).toEqual([
      'nowhere.md: no such file',
      '#no-such-heading: no heading #no-such-heading in README.md',
    ]);
  });

  it.each(USER_DOCS)('%s names no src/ or test/ path (move such notes to CONTRIBUTING.md or docs/dev/)', (doc) => {
    expect(codePaths(read(doc))).toEqual([]);
  });

  it.each(USER_DOCS)("%s names none of docops's code identifiers (say what it does in a user's words)", (doc) => {
    const text = read(doc);
    const named = [...identifiers].filter((n) =>
      new RegExp(`(?<![\\w$-])${n.replace(/\$/g, '\\$')}(?![\\w$-])`).test(text),
    );
    expect(named).toEqual([]);
  });
});

describe('links and paths in every doc', () => {
  it('the contributor docs are there', () => {
    expect(CONTRIBUTOR_DOCS.filter((d) => !existsSync(join(ROOT, d)))).toEqual([]);
    expect(CONTRIBUTOR_DOCS.length).toBeGreaterThan(1);
  });

  it.each([...USER_DOCS, ...CONTRIBUTOR_DOCS].filter((d) => existsSync(join(ROOT, d))))(
    '%s: every relative link names a file the repository has, and its anchor a heading',
    (doc) => {
      expect(brokenLinks(read(doc), join(ROOT, doc))).toEqual([]);
    },
  );

  it.each([...USER_DOCS, ...CONTRIBUTOR_DOCS].filter((d) => existsSync(join(ROOT, d))))(
    '%s: every repository path it writes is there',
    (doc) => {
      expect(missingPaths(read(doc))).toEqual([]);
    },
  );
});
