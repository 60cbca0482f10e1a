import type { CommitCounts } from './child-ipc.ts';
import type { ServerChild } from './children.ts';
import type { Harness } from './harness.ts';
import { applyLoad, type LoadResult } from './load.ts';
import { postThenDelete } from './scaling.ts';

/** One writer alone, and as many at once as the throughput section has. */
export const STORAGE_CONNECTIONS = [1, 50] as const;
/** How many slices each server gets at each count of connections in a round. */
export const STORAGE_SLICES = 8;
export const STORAGE_KINDS = ['ours', 'sqlite'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

export interface StorageRun {
  readonly round: number;
  readonly slice: number;
  readonly connections: number;
  readonly kind: StorageKind;
  readonly result: LoadResult;
  /** The commits the SQLite server made during the slice; null for the memory store. */
  readonly commits: CommitCounts | null;
}

/** A slice's seconds: short, so that both servers meet the same moments of a noisy machine. */
const SLICE_SECONDS = 1;

export const storageRoundSeconds = (warmUpSeconds: number) =>
  2 + STORAGE_CONNECTIONS.length * STORAGE_KINDS.length * (warmUpSeconds + STORAGE_SLICES);

/** What was counted in `after` and not yet in `before`. */
function commitsBetween(
  before: CommitCounts | null,
  after: CommitCounts | null,
): CommitCounts | null {
  if (after === null) return null;
  return {
    sizes: after.sizes.map((count, size) => count - (before?.sizes[size] ?? 0)),
    busyMs: after.busyMs - (before?.busyMs ?? 0),
  };
}

/**
 * Writes with the list in memory and in SQLite: each connection creates an item and deletes
 * it, again and again, on two servers up at once, the same Node host but for `storage.file`.
 * At each count of connections the load takes turns between them in short slices, the order
 * turned every slice, as `bench:ab` does, so a ratio is taken between slices that saw the
 * same machine; the SQLite server says how many changes each of its commits held.
 */
export async function runStorageWrites(harness: Harness, round: number): Promise<StorageRun[]> {
  harness.progress.step(
    `round ${round}/${harness.rounds}, writes in memory and in SQLite`,
    storageRoundSeconds(harness.warmUpSeconds),
  );
  const [ours, sqlite] = await Promise.all(
    STORAGE_KINDS.map((kind) => harness.launch(kind, `${kind}-storage-r${round}`)),
  );
  const servers: Record<StorageKind, ServerChild> = { ours: ours!, sqlite: sqlite! };
  const plan = postThenDelete();
  const runs: StorageRun[] = [];
  try {
    await Promise.all(STORAGE_KINDS.map((kind) => servers[kind].seed(100)));
    for (const connections of STORAGE_CONNECTIONS) {
      harness.progress.show(`${connections} connection(s), warming up`);
      for (const kind of STORAGE_KINDS) {
        if (harness.warmUpSeconds === 0) break;
        await applyLoad(servers[kind], plan, { connections, seconds: harness.warmUpSeconds });
      }
      for (let slice = 1; slice <= STORAGE_SLICES; slice += 1) {
        harness.progress.show(`${connections} connection(s), slice ${slice} of ${STORAGE_SLICES}`);
        const order = slice % 2 === 1 ? STORAGE_KINDS : [...STORAGE_KINDS].reverse();
        for (const kind of order) {
          const server = servers[kind];
          const before = await server.commits();
          const result = await applyLoad(server, plan, { connections, seconds: SLICE_SECONDS });
          const commits = commitsBetween(before, await server.commits());
          runs.push({ round, slice, connections, kind, result, commits });
        }
      }
    }
    return runs;
  } finally {
    await Promise.all(STORAGE_KINDS.map((kind) => servers[kind].stop()));
  }
}
