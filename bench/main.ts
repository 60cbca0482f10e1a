import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBuild } from './build-server.ts';
import { killAllChildren, nameOf, startServerChild, type ServerKind } from './children.ts';
import { FAN_OUT, fanOutTable, runFanOut } from './fan-out-section.ts';
import { withinSeconds } from './load.ts';
import { listsTable, runLists } from './lists.ts';
import { stopLogSink } from './log-sink.ts';
import { readOptions, USAGE, type BenchOptions } from './options.ts';
import { pinLoadToOneCore } from './pinning.ts';
import { runStorageWrites, storageTable } from './storage.ts';
import { status } from './table.ts';
import { runThroughput, throughputTables } from './throughput.ts';
import type { Bench } from './turns.ts';

let options: BenchOptions | 'help';
try {
  options = readOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  console.log(USAGE);
  process.exit(0);
}

// From dist-bench/bench/ back to the project's bench/results/, which git ignores.
const RESULTS = fileURLToPath(new URL('../../bench/results/', import.meta.url));
const startedAt = new Date().toISOString();
const stamp = startedAt.replace(/[:.]/g, '-');
const profileDir = options.cpuProfile ? `${RESULTS}profiles/${stamp}` : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const pinning = options.pin ? pinLoadToOneCore() : undefined;
const { builds, sections, scenarios, servers, turns, sliceSeconds, warmUpSeconds } = options;
/** Raised from prod's 10,000 for every server alike, so POST and the DELETE pool fit. */
const MAX_ITEMS = 1_000_000;
const CONNECTIONS = 50;
const start = { maxItems: MAX_ITEMS, core: pinning?.serverCore, profileDir };
const bench: Bench = {
  turns: { connections: CONNECTIONS, warmUpSeconds, turns, sliceSeconds },
  rounds: options.rounds,
  maxItems: MAX_ITEMS,
  launch: (kind: ServerKind, name: string) =>
    withinSeconds(`starting ${nameOf(kind)}`, 30, () =>
      kind === 'A' || kind === 'B'
        ? startBuild(kind, builds![kind === 'A' ? 0 : 1], start)
        : startServerChild(kind, name, start),
    ),
};

const stopEverything = () => (status.end(), killAllChildren(), stopLogSink());
process.once('SIGINT', () => (stopEverything(), process.exit(130)));

const versionOf = (name: string) =>
  (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
const placement = pinning
  ? `each server on core ${pinning.serverCore}, the load on core ${pinning.loadCore}`
  : 'servers and load unpinned';
const parts: string[] = [];
/** Prints a section's text as soon as it is made, so a later failure does not lose it. */
const report = (...texts: string[]) => {
  status.end();
  console.log(`${texts.join('\n\n')}\n`);
  parts.push(...texts);
};
report(
  `npm run bench, ${startedAt}: ${cpus()[0]?.model} × ${cpus().length}, Node ` +
    `${process.versions.node}, Fastify ${versionOf('fastify')}, autocannon ` +
    `${versionOf('autocannon')}; load average ${loadavg()[0]?.toFixed(2)}; ${placement}. ` +
    (builds
      ? `A and B log a line a request as in prod`
      : `Ours logs a line a request as in prod, and "Fastify, logging" its own two ` +
        `(logger: true); bare node:http and Fastify do not log`) +
    `. The logs go to stdout, read and dropped by a process of its own. limits.maxItems is ` +
    `${MAX_ITEMS} for every server.`,
);
const runs: Record<string, unknown> = {};
try {
  const servedBy = builds ? `A: ${builds[0]}, B: ${builds[1]}` : servers.map(nameOf).join(', ');
  const turnsText =
    `${turns} turns of ${sliceSeconds} s slices after ${warmUpSeconds} s of warm-up each, ` +
    `${CONNECTIONS} connections; a ratio is the median of the ratios within each turn`;
  if (sections.includes('throughput')) {
    const throughput = (runs.throughput = await runThroughput(bench, scenarios, servers));
    report(
      `Throughput (${servedBy}): for each scenario, fresh servers up at once, its list made ` +
        `straight in each server's store (over HTTP for a build), the load taking turns ` +
        `between them: ${turnsText}${builds ? `, in ${bench.rounds} rounds on new processes` : ''}.`,
      throughputTables(throughput, scenarios, servers),
    );
  }
  if (sections.includes('fan-out')) {
    const fanOut = (runs.fanOut = await runFanOut(bench));
    report(
      `Fan-out: ${FAN_OUT.streams} open GET /api/sse streams; ${FAN_OUT.changes} POSTs (after ` +
        `${FAN_OUT.warmUpChanges} untimed), each sent once every stream has the previous ` +
        `event; memory after GC, before and with the streams open; medians of ` +
        `${bench.rounds} round(s).`,
      fanOutTable(fanOut),
    );
  }
  if (sections.includes('lists')) {
    const lists = (runs.lists = await runLists(bench));
    report(
      `Lists, ours only: a server for each count of named lists of one item each, up at ` +
        `once; each connection creates an item in a list picked at random, then deletes it: ` +
        `${turnsText}.`,
      listsTable(lists),
    );
  }
  if (sections.includes('storage')) {
    const storage = (runs.storage = await runStorageWrites(bench));
    report(
      `Storage, writes: ours with the lists in memory and ours with storage.file (node:sqlite, ` +
        `WAL, synchronous = FULL, a fresh file in the temporary folder) up at once, 100 items ` +
        `each; each connection creates an item, then deletes it: ${turnsText}. A commit's ` +
        `changes share one transaction and one fsync, in the event loop.`,
      storageTable(storage),
    );
  }
} catch (error) {
  stopEverything();
  console.error(`npm run bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
stopEverything();

const text = parts.join('\n\n');
mkdirSync(RESULTS, { recursive: true });
const file = `${RESULTS}bench-${stamp}.json`;
writeFileSync(file, `${JSON.stringify({ startedAt, options, pinning, text, runs }, null, 2)}\n`);
console.log(`\nEvery run's figures: ${relative(process.cwd(), file)}`);
