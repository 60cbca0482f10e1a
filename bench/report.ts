import { SERVER_NAMES } from './children.ts';
import { fanOutTable, summariseFanOut } from './fan-out-table.ts';
import type { BenchOptions } from './options.ts';
import type { Pinning } from './pinning.ts';
import type { describeMachine } from './results.ts';
import { listsTable, summariseLists } from './lists-table.ts';
import { LIST_SLICES } from './lists.ts';
import { scalingTables, summariseScaling } from './scaling-table.ts';
import { CONNECTIONS, FAN_OUT, fanOutKinds, MAX_ITEMS, type AllRuns } from './sections.ts';
import { checkTargets, targetsTable } from './targets.ts';
import { STORAGE_SLICES } from './storage.ts';
import { storageTable } from './storage-table.ts';
import { storageWritesTable, summariseStorageWrites } from './storage-writes-table.ts';
import { busyNote, cpuTable, summariseThroughput, throughputTable } from './throughput-table.ts';

/** Every section's figures, medians over the rounds, and the targets checked against them. */
export function summarise(runs: AllRuns, { sections, scenarios, servers }: BenchOptions) {
  const throughput = summariseThroughput(runs.throughput, scenarios, servers);
  const fanOut = summariseFanOut(runs.fanOut, fanOutKinds(servers));
  const scaling = sections.includes('scaling')
    ? summariseScaling(runs.scaling, runs.itemMemory)
    : undefined;
  const lists = sections.includes('lists')
    ? summariseLists(runs.listSpread, runs.listProbes, runs.listMemory)
    : undefined;
  const storage = sections.includes('storage') ? summariseStorageWrites(runs.storage) : undefined;
  const targets = checkTargets(
    sections.includes('throughput') ? throughput : [],
    fanOut,
    scaling,
    lists,
    storage,
  );
  return { throughput, fanOut, scaling, lists, storage, targets };
}

export interface RunSetting {
  readonly startedAt: Date;
  readonly machine: ReturnType<typeof describeMachine>;
  readonly pinning: Pinning | undefined;
  readonly options: BenchOptions;
}

/** What the run measured and how, with every table, as printed. */
export function reportText(
  tables: ReturnType<typeof summarise>,
  runs: AllRuns,
  { startedAt, machine, pinning, options }: RunSetting,
): string {
  const { sections, servers, rounds, seconds, warmUpSeconds } = options;
  const { throughput, fanOut, scaling, lists, storage, targets } = tables;
  const placement = pinning
    ? `each server on core ${pinning.serverCore} and the load on core ${pinning.loadCore} (taskset)`
    : 'servers and load unpinned';
  const parts = [
    `npm run bench, ${startedAt.toISOString()}: ${machine.cpuModel} × ${machine.cpus}, ` +
      `Node ${machine.node}, Fastify ${machine.fastify}, autocannon ${machine.autocannon}; ` +
      `load average at the start ${machine.loadAverage.join(' ')}.\n` +
      `Loopback, ${placement}; medians of ${rounds} round(s), ratios the median of each round's ratio. ` +
      `Ours: the Node host (startNodeServer), prod profile, a JSON log line per request to stdout, ` +
      `read and dropped by the harness; the baselines do not log, but for the adapter with our log line. ` +
      `limits.maxItems is ` +
      `${MAX_ITEMS.toLocaleString('en-US')} for every server (prod: 10,000), so POST and the DELETE pool fit.`,
  ];
  if (sections.includes('throughput')) {
    parts.push(
      `Throughput: autocannon, ${CONNECTIONS} connections, ${seconds} s per run after ${warmUpSeconds} s ` +
        `of warm-up, a fresh server per run, servers taking turns (${servers.map((kind) => SERVER_NAMES[kind]).join(', ')}). ` +
        `Lists are filled straight in each server's store, not over HTTP; DELETE removes a different ` +
        `one of a pool of such items each request.`,
      throughputTable(throughput, servers),
      busyNote(runs.throughput, servers),
      cpuTable(throughput, servers),
    );
    if (servers.includes('sqlite')) {
      parts.push(
        `Storage: "ours, SQLite" is the same host with storage.file set (node:sqlite, WAL, ` +
          `synchronous = FULL, a fresh file in the temporary folder): every change is committed ` +
          `to disk before its answer. Reads come from memory in both.`,
        storageTable(throughput, runs.throughput),
      );
    }
  }
  if (sections.includes('fan-out')) {
    parts.push(
      `Fan-out: ${FAN_OUT.streams} open GET /api/sse streams; ${FAN_OUT.changes} POSTs (after ` +
        `${FAN_OUT.warmUpChanges} untimed), one at a time: each is sent once every stream has the ` +
        `previous event, and timed from being sent to the last stream receiving its event. ` +
        `Memory after GC, before and with the streams open.`,
      fanOutTable(fanOut, fanOutKinds(servers), FAN_OUT),
    );
  }
  if (scaling) {
    parts.push(
      `Scaling, ours only: a fresh server for each list size, warmed up with every operation in turn, ` +
        `then each measured alone. DELETE at N items runs as a POST and then a DELETE of that item on ` +
        `each connection, so the list stays at N (+ at most ${CONNECTIONS}).`,
      scalingTables(scaling),
    );
  }
  if (lists) {
    parts.push(
      `Lists, ours only: a server for each count, all up at once, its named lists made straight ` +
        `in the server with one item each; each connection creates an item in a list picked at ` +
        `random, then deletes it, so the writes land on every list alike. The load takes turns ` +
        `between the servers in slices of 1 s (${LIST_SLICES} turns a round, the order turned ` +
        `every turn); a ratio is the median of the ratios within each turn.`,
      listsTable(lists),
    );
  }
  if (storage) {
    parts.push(
      `Storage, writes: two servers up at once, ours with the lists in memory and ours with ` +
        `storage.file set (node:sqlite, WAL, synchronous = FULL, a fresh file in the temporary ` +
        `folder), each with 100 items made straight in its store; each connection creates an ` +
        `item, then deletes it. At 1 and at ${CONNECTIONS} connections the load takes turns ` +
        `between the two in slices of 1 s (${STORAGE_SLICES} turns a round, the order turned ` +
        `every turn); a ratio is the median of the ratios within each turn, "by CPU" the same ` +
        `from server CPU per request (what the rates would be were both servers the limit). A ` +
        `commit's changes are those written to the file in one transaction, with one fsync; a ` +
        `commit runs in the event loop, which does nothing else meanwhile.`,
      storageWritesTable(storage),
    );
  }
  parts.push(targetsTable(targets));
  return parts.join('\n\n');
}
