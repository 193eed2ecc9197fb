import { defineConfig } from 'vitest/config';

export default defineConfig({
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
