import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/hosts/node/project-root.ts';

/** Where the test entry of the worker (test/workerd/entry.ts) is bundled, for Miniflare. */
export const WORKER_BUNDLE = join(PROJECT_ROOT, '.wrangler/test-worker');

/**
 * Builds the service once before the tests, as `npm start` does (the entry-point tests start
 * it), and bundles the worker's test entry as `wrangler deploy` would.
 */
export default function build(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  execFileSync(
    join(PROJECT_ROOT, 'node_modules/.bin/wrangler'),
    ['deploy', 'test/workerd/entry.ts', '--dry-run', '--outdir', WORKER_BUNDLE],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG: 'error' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}
