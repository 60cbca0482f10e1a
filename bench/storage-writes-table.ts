import { format, formatTable } from './format.ts';
import { median, medianRatio } from './stats.ts';
import { STORAGE_CONNECTIONS, type StorageKind, type StorageRun } from './storage.ts';

/** What the SQLite server's commits were like, over every slice at one count of connections. */
export interface CommitSummary {
  readonly meanChanges: number;
  readonly largest: number;
  /** How long a commit held the event loop, on average. */
  readonly meanMs: number;
  /** The share of the time the event loop spent in commits: the median of the slices'. */
  readonly loopShare: number;
}

/** Writes at one count of connections, in memory and in SQLite: medians over the slices. */
export interface StorageWritesRow {
  readonly connections: number;
  readonly pairsPerSecond: Record<StorageKind, number>;
  readonly cpuPerRequest: Record<StorageKind, number>;
  readonly latencyP50Ms: Record<StorageKind, number>;
  /** Each slice's rate in SQLite over the rate in memory of the same turn: the median. */
  readonly sqliteToMemory: number | undefined;
  /** The same from server CPU per request, what the rates would be were both servers the limit. */
  readonly sqliteToMemoryByCpu: number | undefined;
  readonly commits: CommitSummary | undefined;
}

function summariseCommits(runs: readonly StorageRun[]): CommitSummary | undefined {
  let commits = 0;
  let changes = 0;
  let largest = 0;
  let busyMs = 0;
  for (const run of runs) {
    if (run.commits === null) continue;
    busyMs += run.commits.busyMs;
    run.commits.sizes.forEach((count, size) => {
      commits += count;
      changes += count * size;
      if (count > 0) largest = Math.max(largest, size);
    });
  }
  if (commits === 0) return undefined;
  const loopShare = median(
    runs.map((run) => (run.commits?.busyMs ?? NaN) / (run.result.seconds * 1000)),
  );
  return { meanChanges: changes / commits, largest, meanMs: busyMs / commits, loopShare };
}

export function summariseStorageWrites(runs: readonly StorageRun[]): StorageWritesRow[] {
  return STORAGE_CONNECTIONS.map((connections) => {
    const at = runs.filter((run) => run.connections === connections);
    const byKind = (value: (run: StorageRun) => number) =>
      Object.fromEntries(
        (['ours', 'sqlite'] as const).map((kind) => [
          kind,
          median(at.filter((run) => run.kind === kind).map(value)),
        ]),
      ) as Record<StorageKind, number>;
    const rate = (run: StorageRun) => run.result.requestsPerSecond / 2;
    // medianRatio pairs runs by their round: here a turn of slices is such a round.
    const turns = at.map((run) => ({ ...run, round: run.round * 1000 + run.slice }));
    const inTurns = (value: (run: StorageRun) => number) =>
      medianRatio(
        turns,
        (run) => run.kind === 'sqlite',
        (run) => run.kind === 'ours',
        value,
      );
    return {
      connections,
      pairsPerSecond: byKind(rate),
      cpuPerRequest: byKind((run) => run.result.serverCpuUsPerRequest),
      latencyP50Ms: byKind((run) => run.result.latencyP50Ms),
      sqliteToMemory: inTurns(rate),
      sqliteToMemoryByCpu: inTurns((run) => 1 / run.result.serverCpuUsPerRequest),
      commits: summariseCommits(at.filter((run) => run.kind === 'sqlite')),
    };
  });
}

export function storageWritesTable(rows: readonly StorageWritesRow[]): string {
  const both = (values: Record<StorageKind, number>, shown: (value: number) => string) =>
    `${shown(values.ours)} → ${shown(values.sqlite)}`;
  const ofCommits = (row: StorageWritesRow, shown: (commits: CommitSummary) => string) =>
    row.commits === undefined ? '—' : shown(row.commits);
  return formatTable(
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
    rows.map((row) => [
      `${row.connections} connection${row.connections === 1 ? '' : 's'}`,
      format.count(row.pairsPerSecond.ours),
      format.count(row.pairsPerSecond.sqlite),
      format.ratio(row.sqliteToMemory),
      format.ratio(row.sqliteToMemoryByCpu),
      both(row.cpuPerRequest, format.fixed(1)),
      both(row.latencyP50Ms, format.fixed(2)),
      ofCommits(row, ({ meanChanges, largest }) => `${format.fixed(1)(meanChanges)}, ${largest}`),
      ofCommits(row, ({ meanMs }) => format.ms(meanMs)),
      ofCommits(row, ({ loopShare }) => `${format.fixed(0)(100 * loopShare)}%`),
    ]),
  );
}
