/**
 * A quick build of the sources into a temp directory for tests that spawn a real process: each file is
 * transpiled on its own (no type check; `npm run typecheck` does that), laid out like the checkout's build
 * (src/ → dist/, tools/ → dist-tools/, each workspace package's src/ → its dist/, schemas/, package.json,
 * node_modules with the workspace packages linked to the quick build's own) so modules resolve exactly as in
 * the checkout, the published package and the container.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The workspace's scope in node_modules (package.json `workspaces`: packages/*). */
const WORKSPACE_SCOPE = '@docops';

export function quickBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'docops-build-'));
  const packages = readdirSync(join(REPO, 'packages'));
  const trees: [from: string, to: string][] = [
    ['src', 'dist'],
    ['tools', 'dist-tools'],
    ...packages.map((name): [string, string] => [`packages/${name}/src`, `packages/${name}/dist`]),
  ];
  for (const [from, to] of trees) transpileTree(join(REPO, from), join(root, to));
  cpSync(join(REPO, 'schemas'), join(root, 'schemas'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(root, 'package.json'));
  for (const name of packages)
    cpSync(join(REPO, 'packages', name, 'package.json'), join(root, 'packages', name, 'package.json'));
  // The checkout's packages, but the workspace's own from this build.
  mkdirSync(join(root, 'node_modules', WORKSPACE_SCOPE), { recursive: true });
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry !== WORKSPACE_SCOPE) symlinkSync(join(REPO, 'node_modules', entry), join(root, 'node_modules', entry));
  }
  for (const name of packages)
    symlinkSync(join(root, 'packages', name), join(root, 'node_modules', WORKSPACE_SCOPE, name), 'dir');
  return root;
}

function transpileTree(from: string, to: string): void {
  for (const file of walk(from)) {
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const out = join(to, relative(from, file)).replace(/\.ts$/, '.js');
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
