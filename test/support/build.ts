import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/hosts/node/file-assets.ts';

/** Where the test entry of the worker (test/workerd/entry.ts) is bundled, for Miniflare. */
export const WORKER_BUNDLE = join(PROJECT_ROOT, '.wrangler/test-worker');

/**
 * Builds the service once before the tests, as `npm start` does (the entry-point tests start
 * it), and bundles the worker as `wrangler deploy` would: its test entry, and the worker itself
 * (into .wrangler/worker/, which test/rooms.test.ts reads).
 */
export default function build(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  const wrangler = join(PROJECT_ROOT, 'node_modules/.bin/wrangler');
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG: 'error' };
  for (const [entry, outdir] of [
    ['test/workerd/entry.ts', WORKER_BUNDLE],
    ['src/hosts/workerd/worker.ts', join(PROJECT_ROOT, '.wrangler/worker')],
  ]) {
    execFileSync(wrangler, ['deploy', entry!, '--dry-run', '--outdir', outdir!], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}
