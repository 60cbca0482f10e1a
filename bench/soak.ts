import { withinSeconds } from './bounds.ts';
import { killAllChildren, startServerChild, type ServerChild } from './children.ts';
import { format } from './format.ts';
import { PROD_SETTINGS } from './node-host.ts';
import { busyBetween, cpuMark } from './soak/cpu-share.ts';
import { Failures } from './soak/failures.ts';
import { readList } from './soak/list-read.ts';
import { Ledger } from './soak/ledger.ts';
import { readSoakOptions, SOAK_USAGE, type SoakOptions } from './soak/options.ts';
import { runPhase, type PhaseDeps, type PhaseResult } from './soak/phase.ts';
import { ProgressLine } from './soak/progress-line.ts';
import { formatReport, loadNow, type SoakFigures } from './soak/report.ts';

let options: SoakOptions;
try {
  options = readSoakOptions(process.argv.slice(2));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${SOAK_USAGE}`);
  process.exit(2);
}
/** The first tenth of the traffic, 3 to 15 s: code compiled, pools and history filled. */
const warmUpSeconds = Math.min(15, Math.max(3, Math.round(options.seconds / 10)));
const START_LIMIT_SECONDS = 15;
/** The service has this long to forget every stream once the clients have left. */
const FORGET_STREAMS_MS = 5000;
/**
 * The most the service's heap may grow between the end of the warm-up and the end of the
 * run, each measured after two forced full collections with no request in flight and no
 * stream open. What the service keeps on purpose is full by then: the warm-up makes twice
 * `sse.replayEvents` changes, so the replay history (and the frames cached for it) no longer
 * grows, and every item made is deleted again. Runs of 30 to 60 s on a busy 2-core machine
 * moved it by −0.07 to +0.27 MiB: 1 MiB is over three times that, and still small enough that
 * a leak of one small object per request (44 B at the 24,000 requests a loaded 60 s run
 * serves) crosses it. The report says what it means for each run.
 */
const HEAP_GROWTH_BOUND = 1024 * 1024;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress?.stop();
    console.error(`Interrupted (${signal}): the service child is stopped.`);
    killAllChildren();
    process.exit(130);
  });
}

const loadAtStart = loadNow();
const failures = new Failures();
let exitCode = 1;
let progress: ProgressLine | undefined;
try {
  const server = await withinSeconds('starting the service', START_LIMIT_SECONDS, () =>
    // The prod profile's list limit: the soak keeps the list well under it.
    startServerChild('ours', { maxItems: PROD_SETTINGS.maxItems }),
  );
  progress = new ProgressLine(options.seconds, failures, server);
  exitCode = await soak(server, progress);
} catch (error) {
  progress?.stop();
  console.error(`soak stopped: ${error instanceof Error ? error.message : String(error)}`);
  console.error(failures.describe().join('\n'));
} finally {
  killAllChildren();
}
// Streams or timers of a run that broke off would keep the process alive.
process.exit(exitCode);

async function soak(server: ServerChild, progress: ProgressLine) {
  const url = new URL(server.url);
  if (url.hostname !== '127.0.0.1') {
    throw new Error(`the service listens on ${url.host}, not loopback`);
  }
  const port = Number(url.port);
  const deps: PhaseDeps = {
    port,
    run: (await readList(port)).run,
    replayEvents: PROD_SETTINGS.replayEvents,
    ledger: new Ledger(failures),
    failures,
    connections: options.connections,
    clients: options.clients,
  };
  const phaseLimit = (seconds: number) => seconds + 120;
  const show = (phase: string) => (api: PhaseResult['api'], events: PhaseResult['events']) =>
    (progress.watched = { phase, api, events });

  // Twice the replay buffer: the service's history of changes is full before the heap is
  // first measured, so its growth is not mistaken for a leak.
  const warmUpPlan = {
    label: 'warm-up',
    seconds: warmUpSeconds,
    minChanges: 2 * deps.replayEvents,
  };
  const warmUp = await withinSeconds('the warm-up', phaseLimit(warmUpSeconds), () =>
    runPhase(deps, { ...warmUpPlan, changesBefore: 0 }, show('warm-up')),
  );
  progress.watched = undefined;
  const before = await settled(server);
  let measured: PhaseResult | undefined;
  let after;
  let busy;
  if (failures.total === 0) {
    // A warm-up slowed by a busy machine shortens the measured part, not the run, to a point.
    const seconds = Math.max(options.seconds / 2, options.seconds - warmUp.seconds);
    const plan = { label: 'measured', seconds, minChanges: 0, changesBefore: warmUp.api.changes };
    const cpuBefore = await cpuMark(server);
    measured = await withinSeconds('the measured run', phaseLimit(seconds), () =>
      runPhase(deps, plan, show('measured')),
    );
    busy = busyBetween(cpuBefore, await cpuMark(server));
    progress.watched = undefined;
    after = await settled(server);
    const growth = after.heapUsed - before.heapUsed;
    if (growth > HEAP_GROWTH_BOUND) {
      failures.add(
        'heap growth',
        `the heap grew ${format.signedMib(growth)}, more than ${format.signedMib(HEAP_GROWTH_BOUND)}`,
      );
    }
  }
  progress.stop();
  const figures: SoakFigures = {
    options,
    warmUp,
    measured,
    heap: { before, after },
    heapBound: HEAP_GROWTH_BOUND,
    heapTrend: progress.heapTrend,
    openStreamsAtEnd: (after ?? before).openStreams,
    busy,
    load: { start: loadAtStart, end: loadNow() },
    failures,
  };
  console.log(formatReport(figures));
  await server.stop();
  return failures.total === 0 ? 0 : 1;
}

/** The service's memory once it has forgotten every stream; a failure if it does not. */
async function settled(server: ServerChild) {
  const sample = await server.settledMemory(FORGET_STREAMS_MS);
  if (sample.openStreams > 0) {
    failures.add(
      'open streams',
      `the service still counts ${sample.openStreams} open streams ` +
        `${FORGET_STREAMS_MS / 1000} s after the last client left`,
    );
  }
  return sample;
}
