import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { killAllChildren } from './children.ts';
import { launcher, type Harness } from './harness.ts';
import { stopLogSink } from './log-sink.ts';
import { readOptions, USAGE, type BenchOptions } from './options.ts';
import { pinLoadToOneCore } from './pinning.ts';
import { profileSummaries } from './profile-summary.ts';
import { Progress } from './progress.ts';
import { reportText, summarise } from './report.ts';
import { describeMachine, PROFILES_DIR, writeResults } from './results.ts';
import { CONNECTIONS, FAN_OUT, MAX_ITEMS, planRun, runSections } from './sections.ts';

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

const tables = summarise(runs, options);
const text = reportText(tables, runs, { startedAt, machine, pinning, options });
console.log(text);

const { sections, servers, scenarios, rounds, seconds, warmUpSeconds } = options;
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
  tables,
  text,
  runs,
});
console.log(`\nAll runs and settings: ${relative(process.cwd(), file)}`);
if (profileDir) console.log(profileSummaries(profileDir));
