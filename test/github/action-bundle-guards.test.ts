/**
 * The action bundle's self-containment plugin (tools/build/action-plugins.ts), on small made-up packages: what it
 * inlines, what it leaves out, and that it fails the build — never a run — when a module reads a file the bundle
 * does not hold or a substituted source text has changed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';
import { selfContained } from '../../tools/build/action-plugins.js';

const scratch = mkdtempSync(join(tmpdir(), 'docops-action-guards-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let fixtures = 0;

/** Bundle `src/main.ts` of a package made of `files`; the bundle's file, or the build's error. */
async function bundle(files: Record<string, string>): Promise<{ file?: string; error?: string }> {
  const root = join(scratch, `pkg-${++fixtures}`);
  for (const [name, text] of Object.entries({
    'src/model/errors.ts': 'export class UsageError extends Error {}\n',
    ...files,
  })) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  try {
    const result = await build({
      input: join(root, 'src/main.ts'),
      cwd: root,
      platform: 'node',
      logLevel: 'silent',
      plugins: [selfContained({ root, requires: {} })],
      output: { format: 'cjs', codeSplitting: false },
      write: false,
    });
    const file = join(root, 'bundle.cjs');
    writeFileSync(file, (result.output[0] as { code: string }).code);
    return { file };
  } catch (err) {
    return { error: String(err) };
  }
}

const load = createRequire(import.meta.url);

describe('the action bundle plugin', () => {
  it('inlines a file read relative to a module (package.json: its name and version only)', async () => {
    const { file, error } = await bundle({
      'package.json': JSON.stringify({
        name: 'pkg',
        version: '1.2.3',
        scripts: { build: 'x' },
        devDependencies: { secret: '1' },
      }),
      'schemas/a.json': '{"title":"A"}',
      'src/main.ts': [
        "import { readFileSync } from 'node:fs';",
        "export const pkg = readFileSync(new URL('../package.json', import.meta.url), 'utf8');",
        "export const schema = readFileSync(new URL('../schemas/a.json', import.meta.url), 'utf8');",
      ].join('\n'),
    });
    expect(error).toBeUndefined();
    const mod = load(file!) as { pkg: string; schema: string };
    expect(JSON.parse(mod.pkg)).toEqual({ name: 'pkg', version: '1.2.3' });
    expect(mod.schema).toBe('{"title":"A"}');
  });

  it('fails the build on any other use of import.meta.url, naming the module', async () => {
    const { error } = await bundle({
      'src/main.ts':
        "import { readFileSync } from 'node:fs';\nexport const read = (name: string) => readFileSync(new URL(`../data/${name}.json`, import.meta.url), 'utf8');\n",
    });
    expect(error).toMatch(/src\/main\.ts uses import\.meta\.url in a way the action bundle cannot serve/);
  });

  it('fails the build when a substituted source text is gone', async () => {
    const { error } = await bundle({
      'src/main.ts': "export { operationScopes } from './scopes/operations.ts';\n",
      'src/scopes/operations.ts': 'let table: unknown[] = [];\nexport const operationScopes = () => table;\n',
    });
    expect(error).toMatch(
      /src\/scopes\/operations\.ts changed: the action bundle's substitution of `let table: OperationScopes\[\] \| undefined;`/,
    );
  });

  it('a require relative to a module loads only what the build bundled: anything else is MODULE_NOT_FOUND', async () => {
    const { file, error } = await bundle({
      'src/main.ts':
        "import { createRequire } from 'node:module';\nexport const pretty = () => createRequire(import.meta.url)('pino-pretty');\n",
    });
    expect(error).toBeUndefined();
    const mod = load(file!) as { pretty: () => unknown };
    expect(() => mod.pretty()).toThrow(
      expect.objectContaining({
        code: 'MODULE_NOT_FOUND',
        message: expect.stringMatching(/'pino-pretty': it is not in the docops action bundle/),
      }),
    );
  });

  it('leaves out the modules the action never runs: the bundle loads, importing one refuses with a usage error', async () => {
    const { file, error } = await bundle({
      'src/main.ts': "export const sandbox = () => import('../packages/sandbox/src/index.ts');\n",
      'packages/sandbox/src/index.ts': "export const startSandbox = () => 'the real sandbox';\n",
    });
    expect(error).toBeUndefined();
    const mod = load(file!) as { sandbox: () => Promise<unknown> };
    await expect(mod.sandbox()).rejects.toThrow(
      /the in-process sandbox \(--sandbox\) is not part of the docops GitHub Action/,
    );
    expect(JSON.stringify(load(file!))).not.toContain('the real sandbox');
  });
});
