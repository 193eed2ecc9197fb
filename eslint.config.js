import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * The map of src (docs/dev/architecture.md, "The map"): what each folder may import besides itself. A folder not
 * listed may import any folder listed. The lint refuses an import outside its row; together with import-x/no-cycle
 * it keeps imports flowing one way.
 */
const BASE = ['secrets.ts', 'log-options.ts', 'log.ts', 'write-inside.ts'];
export const MAY_IMPORT = {
  model: [],
  'secrets.ts': [],
  'log-options.ts': ['secrets.ts'],
  'log.ts': ['log-options.ts', 'secrets.ts'],
  // Writing files inside a directory without following a link out of it (its errors are the model's).
  'write-inside.ts': ['model'],
  engine: ['model'],
  api: ['model', ...BASE],
  manifests: ['model', ...BASE],
  render: ['model'],
  scopes: ['model'],
  audit: ['model', 'api', ...BASE],
  kinds: ['model', 'manifests', 'api', ...BASE],
  github: ['model', 'api', ...BASE],
  connect: ['model', 'api', 'scopes', ...BASE],
  'plan-file': ['model', 'engine', 'manifests', 'render', ...BASE],
  safety: ['model', 'engine', 'api', ...BASE],
  export: ['model', 'engine', 'manifests', 'api', 'plan-file', ...BASE],
  undo: ['model', 'engine', 'manifests', 'api', 'kinds', 'safety', ...BASE],
  init: ['model', 'export', ...BASE],
  policy: ['model', 'manifests', 'plan-file', 'github', 'render', ...BASE],
  // Docs health: the broken links of the managed spaces, read beside a plan.
  health: ['model', 'kinds', ...BASE],
  // docops.yaml, read by both hosts (the daemon, and `plan`/`apply --config`): it imports neither.
  config: ['model', 'manifests', 'api', 'safety', 'policy', ...BASE],
  // The run's shared stages (load → scope → read → diff → annotate → gate → journal → apply → after), both hosts'.
  pipeline: ['model', 'engine', 'scopes', 'audit', 'safety', ...BASE],
  daemon: [
    'config',
    'model',
    'engine',
    'api',
    'manifests',
    'render',
    'scopes',
    'audit',
    'kinds',
    'github',
    'plan-file',
    'safety',
    'policy',
    'health',
    'pipeline',
    ...BASE,
  ],
  // Nothing of the daemon: `docops daemon` alone loads it, lazily (DAEMON_COMMAND below).
  cli: [
    'config',
    'model',
    'engine',
    'api',
    'manifests',
    'render',
    'scopes',
    'audit',
    'kinds',
    'github',
    'connect',
    'plan-file',
    'safety',
    'export',
    'undo',
    'init',
    'policy',
    'health',
    'pipeline',
    ...BASE,
  ],
};

const zonesOf = (map) =>
  Object.entries(map).map(([place, allowed]) => ({
    target: `./src/${place}`,
    from: './src',
    except: [place, ...allowed].map((p) => `./${p}`),
    message: `src/${place} may import only ${allowed.length ? allowed.join(', ') : 'nothing of docops'} (docs/dev/architecture.md, "The map").`,
  }));
const zones = zonesOf(MAY_IMPORT);

/**
 * The one exception to the map: `docops daemon` starts the daemon, so its command module imports src/daemon —
 * lazily, once its flags are parsed (test/cli/startup.test.ts holds that `--help` and a bad flag load none of it),
 * and the daemon's types for its hooks. No other module of src/cli may.
 */
const DAEMON_COMMAND = 'src/cli/commands/daemon.ts';
const daemonCommandZones = zonesOf({ ...MAY_IMPORT, cli: [...MAY_IMPORT.cli, 'daemon'] });

/**
 * The workspace's borders (docs/dev/architecture.md): a package imports nothing of docops (src/, tools/, #src/…)
 * nor of another package but through its entries (package.json `exports`), and docops's src/ takes a package
 * only through those entries. A relative import that climbs out of its package is refused by depth: a file
 * `d` folders below the package climbs at most `d` (the deepest folder allowed is MAX_DEPTH).
 */
const MAX_DEPTH = 6;
const PACKAGE_ENTRIES = {
  '@docops/sandbox': ['cli', 'generated-org', 'seed-generated', 'spec-build'],
  '@docops/api-shared': [],
};
const deepImport = Object.entries(PACKAGE_ENTRIES).map(([name, entries]) => ({
  regex: `^${name}/(?!(${entries.join('|') || '$^'})$)`,
  message: `${name}: import it by its entries (its package.json exports), not its files`,
}));
const noDocops = { regex: '^(#src/|docops$|docops/)', message: 'a workspace package imports nothing of docops' };
const bordersOf = (dir, message, more) =>
  Array.from({ length: MAX_DEPTH }, (_, depth) => ({
    files: [`${dir}/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: `^(\\.\\./){${depth + 1}}`, message }, ...more] }],
    },
  }));

const srcImports = [
  {
    regex: '^(\\.\\./)+(packages|tools)/',
    message: 'src/ takes a workspace package by its name and entries, and nothing of tools/',
  },
  ...deepImport,
];

/**
 * A kind imports another kind only through its public module, `model.ts` (docs/dev/architecture.md, "The map"): a
 * file of a kind's folder (`src/kinds/<kind>/`) and the shared modules beside them (`src/kinds/*.ts`) import no
 * other file of a kind's folder. Not kinds: `generated/` (the spec types) and `access/` (the access lists, a part
 * of every kind that has one). The registry (`index.ts`) also takes each kind's `kind.ts`. The one stated
 * exception: `space-purge.ts` (what deleting a space takes, shared by Space and Collection) reads a site's
 * structure with Site's own readers (`site/desired.ts`, `site/structure.ts`).
 */
const KIND_BORDER = 'a kind imports another kind only through its model.ts (docs/dev/architecture.md, "The map")';
const otherKind = (up, allowed) => ({
  regex: `^${up}(?!generated/|access/)[^./][^/]*/(?!(${allowed.join('|')})\\.js$)[^/]+$`,
  message: KIND_BORDER,
});
const kindBorder = (files, up, allowed, ignores = []) => ({
  files,
  ignores: ['src/kinds/generated/**', ...ignores],
  rules: { 'no-restricted-imports': ['error', { patterns: [...srcImports, otherKind(up, allowed)] }] },
});
const kindBorders = [
  kindBorder(['src/kinds/*/**/*.ts'], '\\.\\./', ['model']),
  kindBorder(['src/kinds/*.ts'], '\\./', ['model'], ['src/kinds/index.ts', 'src/kinds/space-purge.ts']),
  kindBorder(['src/kinds/index.ts'], '\\./', ['model', 'kind']),
  kindBorder(['src/kinds/space-purge.ts'], '\\./', ['model', 'desired', 'structure']),
];

const NO_DOUBLE_CAST = {
  selector: 'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"]',
  message: '`as unknown as` silences the type checker: read the value with a check, or type what produces it.',
};

/**
 * One JSON type guard: `isRecord` in src/model/json.ts. Outside model/, a function named like it, or a type
 * predicate whose body is its check (`typeof v === 'object'` … `!Array.isArray(v)`), is a private copy.
 */
const GUARD_CHECK =
  'LogicalExpression:has(UnaryExpression[operator="!"] > CallExpression[callee.property.name="isArray"])' +
  ':has(BinaryExpression[right.value="object"] > UnaryExpression[operator="typeof"])';
const GUARD_MESSAGE = 'a JSON object guard lives once, in src/model/json.ts (isRecord): import it';
const NO_PRIVATE_GUARD = [
  { selector: 'FunctionDeclaration[id.name=/^is(Record|Object|PlainObject|JsonObject)$/]', message: GUARD_MESSAGE },
  { selector: 'VariableDeclarator[id.name=/^is(Record|Object|PlainObject|JsonObject)$/]', message: GUARD_MESSAGE },
  {
    selector: `ArrowFunctionExpression[returnType.typeAnnotation.type="TSTypePredicate"] > ${GUARD_CHECK}`,
    message: GUARD_MESSAGE,
  },
  {
    selector: `FunctionDeclaration[returnType.typeAnnotation.type="TSTypePredicate"] ReturnStatement > ${GUARD_CHECK}`,
    message: GUARD_MESSAGE,
  },
];

export default tseslint.config(
  { ignores: ['**/dist/', 'dist-tools/', 'node_modules/', 'bench/results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    // The shape of the source: no import circles, imports only along the map, small files, no double casts.
    files: ['src/**/*.ts', 'action/**/*.ts', 'packages/**/*.ts', 'tools/**/*.ts'],
    ignores: ['src/kinds/generated/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones }],
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      'no-restricted-syntax': ['error', NO_DOUBLE_CAST],
    },
  },
  {
    files: [DAEMON_COMMAND],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: daemonCommandZones }] },
  },
  {
    // Generated from the kind schemas (tools/build/spec-types.ts): `{}` is what a schema of an object with no members says.
    files: ['src/kinds/generated/**'],
    rules: { '@typescript-eslint/no-empty-object-type': 'off' },
  },
  ...bordersOf(
    'packages/sandbox',
    'the sandbox imports nothing outside its package but other packages, by their entries',
    [noDocops, ...deepImport],
  ),
  ...bordersOf('packages/api-shared', 'api-shared imports nothing outside its package', [noDocops, ...deepImport]),
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: srcImports }] },
  },
  // The kinds' border: its own block (it repeats srcImports: a later block's options replace an earlier one's).
  ...kindBorders,
  {
    // One JSON type guard (src/model/json.ts): no private copy of isRecord elsewhere in src.
    files: ['src/**/*.ts'],
    ignores: ['src/model/**', 'src/kinds/generated/**'],
    rules: { 'no-restricted-syntax': ['error', NO_DOUBLE_CAST, ...NO_PRIVATE_GUARD] },
  },
  {
    // Functions of at most 80 lines of code: a longer one is split into named steps that say what they do.
    files: ['src/**/*.ts'],
    ignores: ['src/kinds/generated/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
