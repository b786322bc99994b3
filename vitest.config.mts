import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/temp-home.ts', 'test/support/global-leak-check.ts'],
    // temp-dir-per-file.ts sets TMPDIR before the test file loads; its afterAll, registered before the
    // file's own, runs after them (vitest's default sequence.hooks 'stack' runs "after" hooks in reverse).
    setupFiles: [
      'test/support/temp-home-check.ts',
      'test/support/temp-dir-per-file.ts',
      'test/support/cleanup.ts',
    ],
    // Suites spawn real processes and burn real CPU: run files one at a time on this 2-core budget.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: { name: 'renderer', include: ['test/renderer/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
    ],
  },
});
