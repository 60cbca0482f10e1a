import { format, formatTable } from './format.ts';
import { medianRatio } from './stats.ts';
import type { ThroughputRow } from './throughput-table.ts';
import type { ThroughputRun } from './throughput.ts';

/**
 * What keeping the list in SQLite costs, per scenario: requests per second and server CPU per
 * request of the Node host with the SQLite store against the same host with the memory store,
 * each a median of the rounds' ratios, and the CPU a write adds.
 */
export function storageTable(rows: readonly ThroughputRow[], runs: readonly ThroughputRun[]) {
  return formatTable(
    ['storage', 'memory req/s', 'SQLite req/s', 'SQLite / memory', 'CPU µs memory → SQLite'],
    rows
      .filter((row) => row.servers.sqlite !== undefined && row.servers.ours !== undefined)
      .map((row) => {
        const of = runs.filter((run) => run.scenario === row.scenario);
        const ratio = medianRatio(
          of,
          (run) => run.kind === 'sqlite',
          (run) => run.kind === 'ours',
          (run) => run.result.requestsPerSecond,
        );
        const memory = row.servers.ours!;
        const sqlite = row.servers.sqlite!;
        return [
          row.label,
          format.count(memory.requestsPerSecond),
          format.count(sqlite.requestsPerSecond),
          format.ratio(ratio),
          `${format.fixed(1)(memory.serverCpuUsPerRequest)} → ${format.fixed(1)(sqlite.serverCpuUsPerRequest)}`,
        ];
      }),
  );
}
