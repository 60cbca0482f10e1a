import { defineConfig } from 'vitest/config';

/** The browser tests: Chromium against the built service. `npm test` does not run them. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/support/build.ts'],
    fileParallelism: false,
    // Lists every test with its annotations: the tabs test reports the streams served and the
    // handover times it measured.
    reporters: ['verbose'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
