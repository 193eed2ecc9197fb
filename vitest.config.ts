import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Fails the run when a test leaves a file in the working tree.
    globalSetup: ['test/worktree-guard.ts'],
  },
});
