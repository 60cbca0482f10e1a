import { postThenDelete } from './scenarios.ts';
import { format, median, medianRatio, table } from './table.ts';
import { takeTurns, type Bench, type SliceRun } from './turns.ts';

/** One writer alone, and as many at once as the throughput section has. */
const STORAGE_CONNECTIONS = [1, 50] as const;
const KINDS = ['ours', 'sqlite'] as const;

export interface StorageRun extends SliceRun<(typeof KINDS)[number]> {
  readonly connections: number;
}

/**
 * Writes with the list in memory and in SQLite: each connection creates an item and deletes
 * it, again and again, on two servers up at once, the same Node host but for `storage.file`,
 * the load taking turns between them at each count of connections.
 */
export async function runStorageWrites(bench: Bench): Promise<StorageRun[]> {
  const servers = await Promise.all(KINDS.map((kind) => bench.launch(kind, `${kind}-storage`)));
  try {
    await Promise.all(servers.map((server) => server.seed(100)));
    const contenders = servers.map((server, at) => ({
      key: KINDS[at]!,
      server,
      plan: postThenDelete(),
    }));
    const runs: StorageRun[] = [];
    for (const connections of STORAGE_CONNECTIONS) {
      const label = `storage, ${connections} connection(s)`;
      const slices = await takeTurns(contenders, { ...bench.turns, connections }, label);
      runs.push(...slices.map((run) => ({ ...run, connections })));
    }
    return runs;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** What the SQLite server's commits were like, over every slice at one count of connections. */
function commitFigures(runs: readonly StorageRun[]): string[] {
  let commits = 0;
  let changes = 0;
  let largest = 0;
  let busyMs = 0;
  for (const { commits: counted } of runs) {
    busyMs += counted?.busyMs ?? 0;
    counted?.sizes.forEach((count, size) => {
      commits += count;
      changes += count * size;
      if (count > 0) largest = Math.max(largest, size);
    });
  }
  if (commits === 0) return ['—', '—', '—'];
  const loopShare = median(
    runs.map((run) => (run.commits?.busyMs ?? NaN) / (run.result.seconds * 1000)),
  );
  return [
    `${format.fixed(1)(changes / commits)}, ${largest}`,
    `${format.fixed(2)(busyMs / commits)} ms`,
    `${format.fixed(0)(100 * loopShare)}%`,
  ];
}

export function storageTable(runs: readonly StorageRun[]): string {
  return table(
    [
      'POST + DELETE',
      'memory pairs/s',
      'SQLite pairs/s',
      'SQLite / memory',
      'by CPU',
      'CPU µs a request, memory → SQLite',
      'p50 ms, memory → SQLite',
      'changes a commit: mean, largest',
      'a commit, mean',
      'event loop in commits',
    ],
    STORAGE_CONNECTIONS.map((connections) => {
      const at = runs.filter((run) => run.connections === connections);
      const sqlite = at.filter((run) => run.key === 'sqlite');
      const both = (value: (run: StorageRun) => number, shown: (value: number) => string) =>
        KINDS.map((kind) => shown(median(at.filter((run) => run.key === kind).map(value))));
      const ratio = (value: (run: StorageRun) => number) =>
        format.ratio(
          medianRatio(
            at,
            (run) => run.key === 'sqlite',
            (run) => run.key === 'ours',
            value,
          ),
        );
      return [
        `${connections} connection${connections === 1 ? '' : 's'}`,
        ...both((run) => run.result.requestsPerSecond / 2, format.count),
        ratio((run) => run.result.requestsPerSecond),
        ratio((run) => 1 / run.result.serverCpuUsPerRequest),
        both((run) => run.result.serverCpuUsPerRequest, format.fixed(1)).join(' → '),
        both((run) => run.result.latencyP50Ms, format.fixed(2)).join(' → '),
        ...commitFigures(sqlite),
      ];
    }),
  );
}
