import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { endProgress, progress, withinSeconds } from './bounds.ts';
import { killAllChildren, startServerChild, type ServerKind } from './children.ts';
import { measureFanOut } from './fan-out.ts';
import { measureMemory } from './memory.ts';
import { formatTable, summarise, type RunResult } from './report.ts';

const FAN_OUT = { streams: 100, posts: 1000, concurrency: 10 };
const MEMORY = { streams: 1000, concurrency: 50 };
/**
 * Runs the same paths first, so neither server is measured while still compiling code or
 * growing its tables to the number of connections: a short fan-out and one memory cycle.
 */
const WARM_UP = { streams: 20, posts: 50, concurrency: 10 };
const LIMIT_SECONDS = { start: 15, warmUp: 30, memory: 60, fanOut: 60 };
const NAMES: Readonly<Record<ServerKind, string>> = {
  ours: 'ours',
  bare: 'bare node:http',
  fastify: 'Fastify',
};

// From dist-bench/bench/live.js back to the project root.
const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url));

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    // Writes a CPU profile of every server child into bench/results/profiles/.
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const rounds = Number(options.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
  console.error('--rounds takes a whole number from 1 to 20.');
  process.exit(2);
}
const profileDir = options['cpu-prof'] ? `${RESULTS_DIR}profiles` : undefined;

process.once('SIGINT', () => {
  endProgress();
  console.error('Interrupted: the servers are stopped.');
  killAllChildren();
  process.exit(130);
});

async function runOne(kind: ServerKind, round: number): Promise<RunResult> {
  const tag = `round ${round}/${rounds}, ${NAMES[kind]}`;
  progress(`${tag}: starting the server`);
  const server = await withinSeconds(`${tag}: starting the server`, LIMIT_SECONDS.start, () =>
    startServerChild(kind, {
      maxItems: 10_000,
      ...(profileDir && {
        cpuProfile: { dir: profileDir, name: `live-${kind}-r${round}.cpuprofile` },
      }),
    }),
  );
  try {
    progress(`${tag}: warming up`);
    await withinSeconds(`${tag}: the warm-up`, LIMIT_SECONDS.warmUp, async () => {
      await measureFanOut(server, WARM_UP);
      await measureMemory(server, MEMORY);
    });
    progress(`${tag}: memory, ${MEMORY.streams} streams open then closed`);
    const memory = await withinSeconds(`${tag}: the memory phase`, LIMIT_SECONDS.memory, () =>
      measureMemory(server, MEMORY),
    );
    progress(`${tag}: fan-out, ${FAN_OUT.posts} events to ${FAN_OUT.streams} streams`);
    const fanOut = await withinSeconds(`${tag}: the fan-out phase`, LIMIT_SECONDS.fanOut, () =>
      measureFanOut(server, FAN_OUT),
    );
    return { kind, round, fanOut, memory };
  } finally {
    await server.stop();
  }
}

const startedAt = new Date();
const runs: RunResult[] = [];
try {
  // Alternating, so drift on a shared machine touches both servers alike.
  for (let round = 1; round <= rounds; round += 1) {
    for (const kind of ['ours', 'bare'] as const) runs.push(await runOne(kind, round));
  }
} catch (error) {
  endProgress();
  killAllChildren();
  console.error(`bench:live failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
endProgress();

const summary = summarise(runs);
console.log(
  `GET /api/sse: ours (startNodeServer, prod settings) against bare node:http, ` +
    `medians of ${rounds} rounds; ${cpus().length} CPUs, Node ${process.versions.node}\n`,
);
console.log(formatTable(summary));

mkdirSync(RESULTS_DIR, { recursive: true });
const file = `${RESULTS_DIR}live-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`;
const result = {
  startedAt: startedAt.toISOString(),
  node: process.versions.node,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  settings: { rounds, fanOut: FAN_OUT, memory: MEMORY, warmUp: WARM_UP },
  summary: summary.map(({ metric, ours, bare, ratio }) => ({ metric, ours, bare, ratio })),
  runs,
};
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nAll runs: ${file}`);
