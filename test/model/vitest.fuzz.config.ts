import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `npm run fuzz`: the model-based test alone, with a random seed and many more runs. */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/model/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    env: { MODEL_FUZZ: '1' },
    // A long run ends when its runs are done (or MODEL_SECONDS has passed), not at a timeout.
    testTimeout: 0,
  },
});
