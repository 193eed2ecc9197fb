/**
 * The documentation a user reads: the README's first screen says what docops is for and shows the road (try →
 * connect → import → review → run) with the two commands a newcomer needs. The user docs (README, docs/*.md,
 * deploy/docker-run.md) speak to users: they name no `src/` or `test/` path and no identifier of docops's code —
 * those notes live in the contributor docs (CONTRIBUTING.md, docs/dev/). In every one of them, user or contributor,
 * each relative link names a file the repository has and each #anchor a heading of that file (as GitHub makes its
 * slugs), and each repository path written as text names a file that is there.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const markdownIn = (dir: string): string[] =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${dir}/${f}`);

/** What a user reads. */
export const USER_DOCS = ['README.md', ...markdownIn('docs'), 'deploy/docker-run.md'];
/** What someone working on docops reads: free to name sources, tests and identifiers. */
export const CONTRIBUTOR_DOCS = ['CONTRIBUTING.md', ...markdownIn('docs/dev')];

const read = (doc: string): string => readFileSync(join(ROOT, doc), 'utf8');
const withoutFences = (text: string): string => text.replace(/```[\s\S]*?```/g, '');

/** GitHub's heading anchor: lower case, punctuation but hyphens and spaces dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = withoutFences(readFileSync(file, 'utf8'));
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, h] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(h!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative links (`[text](path#anchor)`) of a markdown text that name no file, or no heading of the file. */
export function brokenLinks(text: string, file: string): string[] {
  const broken: string[] = [];
  for (const [, target] of withoutFences(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target!)) continue;
    const [path, anchor] = target!.split('#');
    const linked = path === '' ? file : join(dirname(file), path!);
    if (!existsSync(linked)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (anchor !== undefined && statSync(linked).isFile() && linked.endsWith('.md') && !anchors(linked).has(anchor)) {
      broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, linked)}`);
    }
  }
  return broken;
}

/** The repository's top-level folders a doc may name as text (`docs/safety.md`, `deploy/kubernetes/`). */
const REPO_PATH = /(?<![\w./-])((?:docs|deploy|examples|schemas|config\.example|action|bench|src|test)\/[\w./-]*[\w/])/g;

/**
 * Repository paths written as text that name nothing: those with a file extension, or ending in `/` (a folder).
 * Others are left alone: a glob (`src/kinds/*`) stops before its `*`, and `deploy/docops` in
 * `kubectl port-forward deploy/docops` is a Kubernetes resource, not a path.
 */
export function missingPaths(text: string): string[] {
  const missing = new Set<string>();
  for (const [, path] of text.matchAll(REPO_PATH)) {
    const p = path!.replace(/\.$/, '');
    if ((/\.\w+$/.test(p) || p.endsWith('/')) && !existsSync(join(ROOT, p))) missing.add(p);
  }
  return [...missing];
}

/** `src/…` and `test/…` paths in a text (a URL's path, `node_modules/x/src/…` or `latest/` are not). */
export function codePaths(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w.@/-])(?:src|test)\/[^\s`)'",;]*/g)].map((m) => m[0]))];
}

/**
 * Names docops's code exports that read as code (camelCase, PascalCase with an inner capital, UPPER_CASE with an
 * underscore). Some are also words a user meets in docops's own output, manifests or the API; those are listed in
 * USER_FACING with where the user meets them.
 */
function exportedIdentifiers(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(/^export (?:declare )?(?:async )?(?:abstract )?(?:function\*?|class|interface|type|const|let|enum) ([A-Za-z_$][\w$]*)/gm)) {
          names.add(m[1]!);
        }
      }
    }
  };
  walk(join(ROOT, 'src'));
  return new Set([...names].filter((n) => /[a-z][A-Z]|[A-Za-z]_[A-Za-z]/.test(n) && !USER_FACING.has(n)));
}

const USER_FACING = new Set([
  // kinds and sub-kinds: in manifests, plans, safety messages and config keys
  ...['OpenAPISpec', 'OpenAPISpecVersion', 'SamlProvider', 'SiteSection', 'SiteSectionGroup', 'SiteSpace', 'SiteShareLink', 'SiteAdaptiveSchema'],
  ...['SpaceAccess', 'CollectionAccess', 'SiteAccess', 'TeamMember'],
  // error classes: the `errorType` of /readyz, run records and JSON output
  ...['ValidationError', 'ApiError', 'ConflictError', 'ScopeError', 'SafetyError'],
  // API fields and a saved plan's or journal record's fields
  ...['siteSpaces', 'defaultLevel', 'planChecksum', 'stepId'],
  'GitHub',
]);

describe('the README', () => {
  const text = read('README.md');
  const firstScreen = text.split('\n').slice(0, 40).join('\n');

  it('says what docops is for and starts with the two commands', () => {
    expect(firstScreen).toMatch(/GitOps for a GitBook organization/);
    expect(firstScreen).toContain('https://api.gitbook.com/v1');
    const block = /```sh\n([\s\S]*?)```/.exec(firstScreen)?.[1] ?? '';
    expect(block.split('\n').filter(Boolean).map((l) => l.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm test']);
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
    const planted = 'Settled by `SETTLE_DELAYS_MS` (src/core/settle.ts, held by test/core/settle.test.ts); see docs/gone.md.';
    expect(codePaths(planted)).toEqual(['src/core/settle.ts', 'test/core/settle.test.ts']);
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
    const named = [...identifiers].filter((n) => new RegExp(`(?<![\\w$-])${n.replace(/\$/g, '\\$')}(?![\\w$-])`).test(text));
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

  it.each([...USER_DOCS, ...CONTRIBUTOR_DOCS].filter((d) => existsSync(join(ROOT, d))))('%s: every repository path it writes is there', (doc) => {
    expect(missingPaths(read(doc))).toEqual([]);
  });
});
