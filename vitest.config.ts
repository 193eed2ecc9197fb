import { defineConfig } from 'vitest/config';

/**
 * The workspace packages (@docops/sandbox, @docops/api-shared) and the tools' `#src/…` imports resolve to their
 * TypeScript sources (package.json `docops-source`), as the type check and the CLI's bundle read them; the rest
 * are vite's default conditions for node.
 */
const SOURCE_CONDITIONS = ['docops-source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions: SOURCE_CONDITIONS },
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Fails the run when a test leaves a file in the working tree.
    globalSetup: ['test/worktree-guard.ts'],
    // Every plan a test prints as JSON is checked against schemas/plan.schema.json.
    setupFiles: ['test/plan-schema-setup.ts'],
  },
});
