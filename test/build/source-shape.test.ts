/**
 * The lint holds the shape of src (docs/dev/architecture.md, "The map"): each rule is shown refusing a planted
 * breach, linted as if it were a file of src (nothing is written to the tree).
 */
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function rulesBroken(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('the shape of src, as the lint holds it', () => {
  it('the model imports nothing of docops', async () => {
    expect(await rulesBroken('src/model/planted.ts', "export { applyPlan } from '../engine/apply.js';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(
      await rulesBroken('src/model/planted.ts', "export type { ManifestDocument } from './document.js';\n"),
    ).toEqual([]);
  });

  it('kinds do not import the engine, the engine imports only the model', async () => {
    expect(await rulesBroken('src/kinds/planted.ts', "export { orderSteps } from '../engine/order.js';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await rulesBroken('src/engine/planted.ts', "export { KINDS } from '../kinds/index.js';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await rulesBroken('src/kinds/planted.ts', "export type { Plan } from '../model/plan.js';\n")).toEqual([]);
  });

  it('a kind imports another kind only through its model.ts', async () => {
    const broken = (file: string, from: string) => rulesBroken(file, `export * from '${from}';\n`);
    // A kind's part, a shared module beside the kinds and the registry reaching into a kind's folder.
    expect(await broken('src/kinds/team/planted.ts', '../saml/diff.js')).toContain('no-restricted-imports');
    expect(await broken('src/kinds/planted.ts', './team/steps.js')).toContain('no-restricted-imports');
    expect(await broken('src/kinds/index.ts', './site/diff.js')).toContain('no-restricted-imports');
    // What is allowed: another kind's model.ts, its own files, the shared modules, generated/ and access/.
    for (const [file, from] of [
      ['src/kinds/team/planted.ts', '../saml/model.js'],
      ['src/kinds/team/planted.ts', './steps.js'],
      ['src/kinds/team/planted.ts', '../titled.js'],
      ['src/kinds/team/planted.ts', '../generated/team.js'],
      ['src/kinds/team/planted.ts', '../access/cascades.js'],
      ['src/kinds/planted.ts', './site/model.js'],
      ['src/kinds/index.ts', './site/kind.js'],
    ])
      expect(await broken(file!, from!), `${file} importing ${from}`).toEqual([]);
    // The kinds' own block keeps src's rule on the workspace packages.
    expect(await broken('src/kinds/team/planted.ts', '../../../tools/build/spec-types.js')).toContain(
      'no-restricted-imports',
    );
  });

  it('the CLI imports nothing of the daemon but in the `daemon` command; the config imports neither host', async () => {
    const breach = 'import-x/no-restricted-paths';
    expect(await rulesBroken('src/cli/planted.ts', "export { RUN_RESULTS } from '../daemon/metrics.js';\n")).toContain(
      breach,
    );
    // A lazy import is an import too: only the daemon command may load the daemon, even late.
    const lazy = "export const later = () => import('../../daemon/daemon.js');\n";
    expect(await rulesBroken('src/cli/commands/planted.ts', lazy)).toContain(breach);
    expect(await rulesBroken('src/cli/commands/daemon.ts', lazy)).toEqual([]);
    expect(await rulesBroken('src/cli/commands/daemon.ts', readFileSync('src/cli/commands/daemon.ts', 'utf8'))).toEqual(
      [],
    );
    expect(
      await rulesBroken('src/config/planted.ts', "export { RUN_RESULTS } from '../daemon/metrics.js';\n"),
    ).toContain(breach);
    expect(await rulesBroken('src/cli/planted.ts', "export { loadConfig } from '../config/load.js';\n")).toEqual([]);
    expect(await rulesBroken('src/daemon/planted.ts', "export { loadConfig } from '../config/load.js';\n")).toEqual([]);
  });

  it('no import circle', async () => {
    // src/engine/run.ts imports apply.ts: apply.ts importing run.ts closes a circle.
    const apply =
      "import { reconcileOnce } from './run.js';\n" +
      readFileSync('src/engine/apply.ts', 'utf8') +
      'export const again = reconcileOnce;\n';
    expect(await rulesBroken('src/engine/apply.ts', apply)).toContain('import-x/no-cycle');
  });

  it('no `as unknown as`, and files of at most 300 lines of code', async () => {
    expect(
      await rulesBroken('src/engine/planted.ts', 'export const n = (JSON.parse("1") as unknown as number) + 1;\n'),
    ).toContain('no-restricted-syntax');
    const long = Array.from({ length: 301 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    expect(await rulesBroken('src/engine/planted.ts', long)).toContain('max-lines');
    expect(await rulesBroken('src/engine/planted.ts', long.split('\n').slice(1).join('\n'))).toEqual([]);
  });

  it('functions of at most 80 lines of code (blank lines and comments aside)', async () => {
    const fn = (lines: number): string =>
      'export function planted(): number {\n  let n = 0;\n' +
      Array.from({ length: lines - 4 }, (_, i) => `  n += ${i};\n  // a comment\n\n`).join('') +
      '  return n;\n}\n';
    expect(await rulesBroken('src/engine/planted.ts', fn(81))).toContain('max-lines-per-function');
    expect(await rulesBroken('src/engine/planted.ts', fn(80))).toEqual([]);
  });

  it('one JSON type guard: isRecord in src/model/json.ts, and no private copy elsewhere in src', async () => {
    const copy =
      "export const isObject = (v: unknown): v is Record<string, unknown> =>\n  v !== null && typeof v === 'object' && !Array.isArray(v);\n";
    expect(await rulesBroken('src/engine/planted.ts', copy)).toContain('no-restricted-syntax');
    // The same check under another name, inside a wider guard, is a copy too.
    const inline =
      'export function isThing(v: unknown): v is { id: string } {\n' +
      "  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'id' in v;\n}\n";
    expect(await rulesBroken('src/api/planted.ts', inline)).toContain('no-restricted-syntax');
    expect(await rulesBroken('src/model/planted.ts', copy)).toEqual([]);
    const shared =
      "import { isRecord } from '../model/json.js';\n\n" +
      "export const idOf = (v: unknown): unknown => (isRecord(v) ? v['id'] : undefined);\n";
    expect(await rulesBroken('src/engine/planted.ts', shared)).toEqual([]);
  });

  it('one layout: the formatter refuses code it would write differently, and leaves prose and YAML alone', async () => {
    // What `npm run lint` runs after eslint: `prettier --check .` with the repository's options and ignore file.
    const formatted = async (filePath: string, code: string): Promise<boolean> => {
      const options = await prettier.resolveConfig(filePath);
      return prettier.check(code, { ...options, filepath: filePath });
    };
    const ignored = async (filePath: string): Promise<boolean> =>
      (await prettier.getFileInfo(filePath, { ignorePath: '.prettierignore' })).ignored;
    expect(await formatted('src/engine/planted.ts', 'export const pair = {a:1, "b": 2}\n')).toBe(false);
    expect(await formatted('src/engine/planted.ts', 'export const pair = { a: 1, b: 2 };\n')).toBe(true);
    expect(await formatted('src/engine/apply.ts', readFileSync('src/engine/apply.ts', 'utf8'))).toBe(true);
    expect(await ignored('src/engine/apply.ts')).toBe(false);
    expect(await ignored('docs/dev/architecture.md')).toBe(true);
    expect(await ignored('config.example/manifests/members.yaml')).toBe(true);
    expect(await ignored('src/kinds/generated/team.ts')).toBe(true);
  });
});
