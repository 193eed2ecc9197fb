/**
 * The rules of docops's documentation, as functions the doc and CLI tests share: what a link, a repository path, a
 * source path or a code identifier is, and whether it names something that exists.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

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
const REPO_PATH =
  /(?<![\w./-])((?:docs|deploy|examples|schemas|config\.example|action|bench|src|test)\/[\w./-]*[\w/])/g;

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
export function exportedIdentifiers(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(
          /^export (?:declare )?(?:async )?(?:abstract )?(?:function\*?|class|interface|type|const|let|enum) ([A-Za-z_$][\w$]*)/gm,
        )) {
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
  ...[
    'OpenAPISpec',
    'OpenAPISpecVersion',
    'SamlProvider',
    'SiteSection',
    'SiteSectionGroup',
    'SiteSpace',
    'SiteShareLink',
    'SiteAdaptiveSchema',
  ],
  ...['SpaceAccess', 'CollectionAccess', 'SiteAccess', 'TeamMember'],
  // error classes: the `errorType` of /readyz, run records and JSON output
  ...['ValidationError', 'ApiError', 'ConflictError', 'ScopeError', 'SafetyError', 'PolicyError'],
  // API fields and a saved plan's or journal record's fields
  ...['siteSpaces', 'defaultLevel', 'mergeRules', 'planChecksum', 'stepId'],
  // /readyz and POST /reconcile answers
  'lastRun',
  'GitHub',
]);
