import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    // CI machines are shared and slow at times; a correct service must not fail on a pause.
    // Waits end as soon as their condition holds, so generous limits cost nothing when green.
    testTimeout: 20_000,
    // A wrangler dev host starts in a test's beforeEach: bundling and workerd take seconds.
    hookTimeout: 60_000,
    expect: { poll: { timeout: 5_000 } },
  },
});
