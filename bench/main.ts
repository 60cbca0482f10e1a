import { mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { killAllChildren, SERVER_NAMES } from './children.ts';
import { fanOutTable, summariseFanOut } from './fan-out-table.ts';
import { launcher, type Harness } from './harness.ts';
import { stopLogSink } from './log-sink.ts';
import { readOptions, USAGE, type BenchOptions } from './options.ts';
import { pinLoadToOneCore } from './pinning.ts';
import { topSelfTime } from './profile-summary.ts';
import { Progress } from './progress.ts';
import { describeMachine, PROFILES_DIR, writeResults } from './results.ts';
import { scalingTables, summariseScaling } from './scaling-table.ts';
import { FAN_OUT, fanOutKinds, planRun, runSections } from './sections.ts';
import { checkTargets, targetsTable } from './targets.ts';
import { busyNote, cpuTable, summariseThroughput, throughputTable } from './throughput-table.ts';

const CONNECTIONS = 50;
/** Raised from prod's 10,000 for all three servers alike, so POST and the DELETE pool fit. */
const MAX_ITEMS = 1_000_000;

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

const startedAt = new Date();
const machine = describeMachine();
const pinning = options.pin ? pinLoadToOneCore() : undefined;
// A folder per run, so the summary below reads this run's profiles only.
const profileDir = options.cpuProfile
  ? join(PROFILES_DIR, startedAt.toISOString().replace(/[:.]/g, '-'))
  : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const planned = planRun(options);
const progress = new Progress(planned.steps, planned.seconds);
const harness: Harness = {
  rounds: options.rounds,
  load: { connections: CONNECTIONS, seconds: options.seconds },
  warmUpSeconds: options.warmUpSeconds,
  maxItems: MAX_ITEMS,
  progress,
  launch: launcher({ maxItems: MAX_ITEMS, serverCore: pinning?.serverCore, profileDir }),
};

const stopEverything = () => {
  progress.end();
  killAllChildren();
  stopLogSink();
};
process.once('SIGINT', () => {
  stopEverything();
  console.error('Interrupted: the servers are stopped.');
  process.exit(130);
});

let runs;
try {
  runs = await runSections(harness, options);
} catch (error) {
  stopEverything();
  console.error(`npm run bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
stopEverything();

const { sections, servers, scenarios, rounds, seconds, warmUpSeconds } = options;
const throughput = summariseThroughput(runs.throughput, scenarios, servers);
const fanOut = summariseFanOut(runs.fanOut, fanOutKinds(servers));
const scaling = sections.includes('scaling')
  ? summariseScaling(runs.scaling, runs.itemMemory)
  : undefined;
const targets = checkTargets(sections.includes('throughput') ? throughput : [], fanOut, scaling);

const placement = pinning
  ? `each server on core ${pinning.serverCore} and the load on core ${pinning.loadCore} (taskset)`
  : 'servers and load unpinned';
const parts = [
  `npm run bench, ${startedAt.toISOString()}: ${machine.cpuModel} × ${machine.cpus}, ` +
    `Node ${machine.node}, Fastify ${machine.fastify}, autocannon ${machine.autocannon}; ` +
    `load average at the start ${machine.loadAverage.join(' ')}.\n` +
    `Loopback, ${placement}; medians of ${rounds} round(s), ratios the median of each round's ratio. ` +
    `Ours: the Node host (startNodeServer), prod profile, a JSON log line per request to stdout, ` +
    `read and dropped by the harness; the baselines do not log. limits.maxItems is ` +
    `${MAX_ITEMS.toLocaleString('en-US')} for all three servers (prod: 10,000), so POST and the DELETE pool fit.`,
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
parts.push(targetsTable(targets));
const text = parts.join('\n\n');
console.log(text);

const file = writeResults(startedAt, {
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  machine: { ...machine, loadAverageAtEnd: describeMachine().loadAverage },
  settings: {
    rounds,
    seconds,
    warmUpSeconds,
    connections: CONNECTIONS,
    maxItems: MAX_ITEMS,
    pinning: pinning ?? null,
    sections,
    scenarios: scenarios.map((scenario) => scenario.id),
    servers,
    fanOut: FAN_OUT,
    cpuProfile: options.cpuProfile,
  },
  tables: { throughput, fanOut, scaling, targets },
  text,
  runs,
});
console.log(`\nAll runs and settings: ${relative(process.cwd(), file)}`);

if (profileDir) {
  const profiles = readdirSync(profileDir).filter((name) => name.startsWith('ours-'));
  const groups = new Map<string, string[]>();
  for (const name of profiles) {
    const group = name.replace(/-r\d+\.cpuprofile$/, '').replace(/\.cpuprofile$/, '');
    groups.set(group, [...(groups.get(group) ?? []), join(profileDir, name)]);
  }
  console.log(`\nCPU profiles in ${relative(process.cwd(), profileDir)}; ours, by what it served:`);
  for (const files of groups.values()) console.log(`\n${topSelfTime(files)}`);
}
