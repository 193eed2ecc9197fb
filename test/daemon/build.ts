/**
 * A quick build of src/ into a temp directory for tests that spawn a real process: each file is transpiled
 * on its own (no type check; `npm run typecheck` does that), laid out like the package (dist/, schemas/,
 * package.json, node_modules) so modules resolve exactly as in the published package and the container.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

export function quickBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'docops-build-'));
  const src = join(REPO, 'src');
  for (const file of walk(src)) {
    if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
    const out = join(root, 'dist', relative(src, file)).replace(/\.ts$/, '.js');
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
  cpSync(join(REPO, 'schemas'), join(root, 'schemas'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
  return root;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
