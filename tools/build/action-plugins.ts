/**
 * The rolldown plugin that makes the GitHub Action's bundle (bundle-action.ts) self-contained: it runs from the
 * action's checkout (action/dist/index.cjs) with no node_modules, no dist/ and no package around it, so every file
 * the CLI's modules read or `require` relative to themselves at run time (import.meta.url) is put into the bundle,
 * and the commands the action never runs are left out.
 *
 * Each substitution names the exact source text it replaces and fails the build when that text is gone (a changed
 * module must be looked at, never silently bundled as it is), and a module of src/ that still uses
 * import.meta.url afterwards fails the build: it would read a file the action does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'rolldown';

/** Modules the action never runs (it runs validate, plan, apply and pr-comment), each replaced by one that refuses. */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  'src/cli/commands/daemon.ts': '`docops daemon`',
  'src/cli/commands/export.ts': '`docops export`',
  'src/cli/commands/undo.ts': '`docops undo`',
  'src/cli/commands/init.ts': '`docops init`',
  'src/cli/commands/sandbox.ts': '`docops sandbox`',
  'packages/sandbox/src/index.ts': 'the in-process sandbox (--sandbox)',
};

interface Substitution {
  /** The module (relative to the package root). */
  module: string;
  find: string;
  /** Called when the module is bundled. */
  replace: () => string;
}

const LEFT_OUT_PREFIX = '\0docops-action-left-out:';
const BUNDLED_REQUIRE = '\0docops-action:require';

export interface SelfContainedOptions {
  /** The package root (the sources, schemas/ and the build's dist/). */
  root: string;
  /**
   * What `createRequire(import.meta.url)(id)` may load, by id: the file (absolute) or package bundled for it. Any
   * other id throws MODULE_NOT_FOUND, as a missing package would.
   */
  requires: Readonly<Record<string, string>>;
}

const slash = (path: string): string => path.split(sep).join('/');

/** The action's self-containment, as one plugin (see the file comment). */
export function selfContained(options: SelfContainedOptions): Plugin {
  const { root } = options;
  const rel = (id: string): string => slash(relative(root, id));
  const text = (file: string): string => readFileSync(join(root, file), 'utf8');
  const substitutions: Substitution[] = [
    // The table `npm run build` extracts from the API spec (a dev dependency): set before operationScopes() looks.
    {
      module: 'src/scopes/operations.ts',
      find: 'let table: OperationScopes[] | undefined;',
      replace: () =>
        `let table: OperationScopes[] | undefined = ${JSON.stringify(JSON.parse(text('dist/api/operation-scopes.json')))};`,
    },
    {
      module: 'src/scopes/operations.ts',
      find: "fileURLToPath(new URL('../../dist/api/operation-scopes.json', import.meta.url))",
      replace: () => "'dist/api/operation-scopes.json (in the bundle)'",
    },
    // docops.yaml's schema, for `apply --config docops.yaml` (its `safety:` limits and journalDir).
    {
      module: 'src/config/schema.ts',
      find: "readJson(new URL('../../schemas/config.schema.json', import.meta.url))",
      replace: () => `JSON.parse(${JSON.stringify(text('schemas/config.schema.json'))})`,
    },
    {
      module: 'src/config/schema.ts',
      find: 'const safetyUrl = new URL(`../../schemas/${SAFETY_REF}`, import.meta.url);',
      replace: () => '',
    },
    {
      module: 'src/config/schema.ts',
      find: "existsSync(safetyUrl) ? (readJson(safetyUrl) as Record<string, unknown>) : { type: 'object' }",
      replace: () => `(JSON.parse(${JSON.stringify(text('schemas/safety.schema.json'))}) as Record<string, unknown>)`,
    },
    // The plan's and the journal's schemas (their readers and the plan's printer walk them).
    {
      module: 'src/model/format-schemas.ts',
      find: 'const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);',
      replace: () => '',
    },
    {
      module: 'src/model/format-schemas.ts',
      find: "JSON.parse(readFileSync(url, 'utf8'))",
      replace: () =>
        `JSON.parse((${JSON.stringify({ plan: text('schemas/plan.schema.json'), journal: text('schemas/journal.schema.json') })} as Record<string, string>)[name]!)`,
    },
  ];

  return {
    name: 'docops-action-self-contained',
    async resolveId(id, importer, extra) {
      if (id === BUNDLED_REQUIRE) return id;
      if (importer === undefined || importer.startsWith('\0') || /[\\/]node_modules[\\/]/.test(importer)) return null;
      const resolved = await this.resolve(id, importer, { ...extra, skipSelf: true });
      if (resolved && LEFT_OUT[rel(resolved.id)] !== undefined) return LEFT_OUT_PREFIX + rel(resolved.id);
      return null;
    },
    load(id) {
      if (id === BUNDLED_REQUIRE) return bundledRequireModule(options.requires);
      if (id.startsWith(LEFT_OUT_PREFIX)) {
        const what = LEFT_OUT[id.slice(LEFT_OUT_PREFIX.length)]!;
        const message = `${what} is not part of the docops GitHub Action, which runs validate, plan and apply: use the docops command line (docs/install.md)`;
        return `import { UsageError } from ${JSON.stringify(join(root, 'src/model/errors.ts'))};\nthrow new UsageError(${JSON.stringify(message)});\n`;
      }
      if (rel(id) === 'src/kinds/schema.ts') return schemaModule(root);
      return null;
    },
    transform(code, id) {
      const module = rel(id);
      if (!module.startsWith('src/') && !module.startsWith('packages/') && !module.startsWith('action/')) return null;
      let out = code;
      for (const s of substitutions.filter((x) => x.module === module)) {
        const at = out.indexOf(s.find);
        if (at === -1 || out.indexOf(s.find, at + 1) !== -1)
          this.error(
            `${module} changed: the action bundle's substitution of \`${s.find}\` (tools/build/action-plugins.ts) no longer applies once; update it`,
          );
        out = out.replace(s.find, s.replace);
      }
      // A file read relative to the module: its text, inlined (package.json: only its name and version).
      out = out.replace(/readFileSync\(new URL\('([^']+)', import\.meta\.url\), 'utf8'\)/g, (_, path: string) => {
        const file = rel(resolve(id, '..', path));
        const content =
          file === 'package.json'
            ? JSON.stringify(pick(JSON.parse(text(file)) as Record<string, unknown>, ['name', 'version']))
            : text(file);
        return JSON.stringify(content);
      });
      // `require` relative to the module: from the bundle (BUNDLED_REQUIRE).
      if (out.includes('createRequire(import.meta.url)')) {
        out = `import { bundledRequire as __docopsBundledRequire } from ${JSON.stringify(BUNDLED_REQUIRE)};\n${out.replaceAll('createRequire(import.meta.url)', '__docopsBundledRequire')}`;
      }
      if (out.includes('import.meta.url'))
        this.error(
          `${module} uses import.meta.url in a way the action bundle cannot serve (a file read relative to the module): inline it in tools/build/action-plugins.ts, or leave the module out`,
        );
      return out === code ? null : out;
    },
  };
}

function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in object).map((k) => [k, object[k]]));
}

/** src/kinds/schema.ts for the bundle: the same loadSchema, over the texts of schemas/*.schema.json. */
function schemaModule(root: string): string {
  const names = readdirSync(join(root, 'schemas'))
    .filter((f) => f.endsWith('.schema.json'))
    .sort();
  const entries = names.map(
    (f) =>
      `  ${JSON.stringify(f.slice(0, -'.schema.json'.length))}: ${JSON.stringify(readFileSync(join(root, 'schemas', f), 'utf8'))},`,
  );
  return [
    '// src/kinds/schema.ts in the GitHub Action bundle: the schemas are inlined (tools/build/action-plugins.ts).',
    'const SCHEMAS = {',
    ...entries,
    '};',
    'export function loadSchema(name) {',
    '  if (!Object.hasOwn(SCHEMAS, name)) throw new Error(`schemas/${name}.schema.json is not in the docops action bundle`);',
    '  return JSON.parse(SCHEMAS[name]);',
    '}',
    '',
  ].join('\n');
}

/** `createRequire(import.meta.url)` in the bundle: a require of the ids the build bundled, by their literal `require`. */
function bundledRequireModule(requires: Readonly<Record<string, string>>): string {
  const table = Object.entries(requires)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, target]) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(target)}),`);
  return [
    'const BUNDLED = {',
    ...table,
    '};',
    'const missing = (id) => Object.assign(new Error(`Cannot find module \'${id}\': it is not in the docops action bundle`), { code: "MODULE_NOT_FOUND" });',
    'export const bundledRequire = Object.assign(',
    '  (id) => {',
    '    if (!Object.hasOwn(BUNDLED, id)) throw missing(id);',
    '    return BUNDLED[id]();',
    '  },',
    '  { resolve: (id) => { throw missing(id); } },',
    ');',
    '',
  ].join('\n');
}
