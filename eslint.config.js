import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The workspace's borders (docs/dev/architecture.md): a package imports nothing of docops (src/, tools/, #src/…)
 * nor of another package but through its entries (package.json `exports`), and docops's src/ takes a package
 * only through those entries. A relative import that climbs out of its package is refused by depth: a file
 * `d` folders below the package climbs at most `d` (the deepest folder allowed is MAX_DEPTH).
 */
const MAX_DEPTH = 6;
const PACKAGE_ENTRIES = { '@docops/sandbox': ['cli', 'generated-org', 'seed-generated', 'spec-build'], '@docops/api-shared': [] };
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

export default tseslint.config(
  { ignores: ['**/dist/', 'dist-tools/', 'node_modules/', 'bench/results/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    // Generated from the kind schemas (tools/build/spec-types.ts): `{}` is what a schema of an object with no members says.
    files: ['src/kinds/generated/**'],
    rules: { '@typescript-eslint/no-empty-object-type': 'off' },
  },
  ...bordersOf('packages/sandbox', 'the sandbox imports nothing outside its package but other packages, by their entries', [noDocops, ...deepImport]),
  ...bordersOf('packages/api-shared', 'api-shared imports nothing outside its package', [noDocops, ...deepImport]),
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(\\.\\./)+(packages|tools)/', message: 'src/ takes a workspace package by its name and entries, and nothing of tools/' }, ...deepImport] }],
    },
  },
);
