import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Which core the server children run on and which the load (this process) runs on. */
export interface Pinning {
  readonly serverCore: number;
  readonly loadCore: number;
}

/**
 * Pins this process, every thread of it, to core 0 and reserves core 1 for the server under
 * test, as the issue's own measurement did; undefined where that is not possible.
 */
export function pinLoadToOneCore(): Pinning | undefined {
  if (availableParallelism() < 2) return undefined;
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], {
    stdio: 'ignore',
  });
  return pinned.status === 0 ? { serverCore: 1, loadCore: 0 } : undefined;
}
