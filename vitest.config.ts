import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    // Most of the time a suite waits on a server, a stream or a timer, not on the CPU: four
    // files at a time keep two cores busy (vitest would run one at a time on two).
    maxWorkers: 4,
    // CI machines are shared and slow at times; a correct service must not fail on a pause.
    // Waits end as soon as their condition holds, so generous limits cost nothing when green.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    expect: { poll: { timeout: 5_000 } },
  },
});
