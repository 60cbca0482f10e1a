// Two builds of the Node host side by side, to see what one change does to the CPU a request
// costs: `npm run bench:ab -- <build A> <build B>`. Each build runs as a user runs it, its own
// `node <build>/hosts/node/main.js`, and the load takes turns between the two in short slices,
// so both see the same moments of a shared, noisy machine; the figure is each slice's ratio of
// the two, then the median. Linux only: the CPU time comes from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { format, formatTable } from './format.ts';
import { logSink, stopLogSink } from './log-sink.ts';
import { pinLoadToOneCore } from './pinning.ts';
import { median } from './stats.ts';

const USAGE = `Usage: npm run bench:ab -- <build A> <build B> [options]

A build is the dist/ folder of a checkout after \`npm run build\`, such as that of another
commit checked out with \`git worktree add\`, where it finds its own node_modules. Both run at
once on 127.0.0.1 with the prod profile (the log to a pipe that is read and dropped) and room for
ten million items; the load (autocannon, 50 connections) takes turns between them, the order
reversed every other slice.

  --scenarios A,B  of get-one, post, put, hello (default get-one,post,put)
  --slices N       slices per scenario and build (default 10), after one of warm-up
  --seconds S      seconds a slice (default 2)
  --log-a LEVEL    A's log level (default info); --log-b likewise
  --node-a=FLAGS   Node's own options for A, as in --node-a="--max-semi-space-size=32"
                   (with "=", since they start with a dash); --node-b likewise`;

const BODY = { 'content-type': 'application/json' };
type Target = { url: string; id: string };
/** Each scenario's one request, for a server that holds the item `id`. */
const SCENARIOS: Record<string, (id: string) => autocannon.Request> = {
  'get-one': (id) => ({ path: `/api/todos/${id}` }),
  post: () => ({
    method: 'POST',
    path: '/api/todos',
    headers: BODY,
    body: '{"title":"Water the plants"}',
  }),
  put: (id) => ({
    method: 'PUT',
    path: `/api/todos/${id}`,
    headers: BODY,
    body: '{"title":"Water the plants","completed":true}',
  }),
  hello: () => ({ path: '/hello' }),
};

/** Every server started, so that none outlives this run. */
const children = new Set<ChildProcess>();
/**
 * SIGKILL, not a graceful stop: a server that logged its shutdown after the log sink had gone
 * would hang on exit, if it is a build from before that was fixed.
 */
function stopChildren(): void {
  for (const child of children) child.kill('SIGKILL');
  stopLogSink();
}

interface Build extends Target {
  readonly name: string;
  readonly child: ChildProcess;
}

const clockTicksPerSecond = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString()) || 100;

/** The process's CPU time so far (user and system), in µs. */
function cpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name, in parentheses, may itself hold ") ".
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicksPerSecond;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => probe.once('listening', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** One side's settings: its build, its log level and the options its Node starts with. */
interface Side {
  readonly build: string;
  readonly logLevel: string;
  readonly nodeFlags: readonly string[];
}

async function start(name: string, { build, logLevel, nodeFlags }: Side, core?: number) {
  const configDir = mkdtempSync(join(tmpdir(), 'bench-ab-'));
  writeFileSync(
    join(configDir, 'prod.yaml'),
    `log:\n  level: ${logLevel}\nlimits:\n  maxItems: 10000000\n`,
  );
  const port = await freePort();
  const main = join(resolve(build), 'hosts/node/main.js');
  const node = [process.execPath, ...nodeFlags, main];
  const command = core === undefined ? node : ['taskset', '-c', `${core}`, ...node];
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, TODO_CONFIG_DIR: configDir, PORT: `${port}`, HOST: '127.0.0.1' },
    stdio: ['ignore', logSink(), 'inherit'],
  });
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let waited = 0; ; waited += 100) {
      const up = await fetch(`${url}/healthz`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (up) break;
      if (waited > 10_000 || child.exitCode !== null) {
        throw new Error(`${name} (${node.slice(1).join(' ')}) did not start.`);
      }
      await sleep(100);
    }
  } finally {
    rmSync(configDir, { recursive: true });
  }
  const created = await fetch(`${url}/api/todos`, {
    method: 'POST',
    headers: BODY,
    body: '{"title":"Water the plants"}',
  });
  const { id } = (await created.json()) as { id: string };
  return { name, child, url, id } satisfies Build;
}

/** One slice of load on `build`: its CPU time per request, in µs. */
async function slice(build: Build, scenario: string, seconds: number): Promise<number> {
  const before = cpuUs(build.child.pid!);
  const result = await autocannon({
    url: build.url,
    connections: 50,
    duration: seconds,
    timeout: 10,
    requests: [SCENARIOS[scenario]!(build.id)],
  });
  const spent = cpuUs(build.child.pid!) - before;
  let answered = 0;
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    if (!status.startsWith('2'))
      throw new Error(`${build.name}, ${scenario}: ${count} × ${status}.`);
    answered += count;
  }
  if (result.errors > 0 || answered === 0) {
    throw new Error(`${build.name}, ${scenario}: ${result.errors} errors, ${answered} answers.`);
  }
  return spent / answered;
}

const describe = ({ build, logLevel, nodeFlags }: Side) =>
  `${build} (log ${logLevel}${nodeFlags.length > 0 ? `, node ${nodeFlags.join(' ')}` : ''})`;

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      scenarios: { type: 'string', default: 'get-one,post,put' },
      slices: { type: 'string', default: '10' },
      seconds: { type: 'string', default: '2' },
      'log-a': { type: 'string', default: 'info' },
      'log-b': { type: 'string', default: 'info' },
      'node-a': { type: 'string', default: '' },
      'node-b': { type: 'string', default: '' },
      help: { type: 'boolean' },
    },
  });
  const scenarios = values.scenarios.split(',');
  const slices = Number(values.slices);
  const seconds = Number(values.seconds);
  const unknown = scenarios.filter((scenario) => !(scenario in SCENARIOS));
  if (
    values.help ||
    positionals.length !== 2 ||
    unknown.length > 0 ||
    !(slices >= 1) ||
    !(seconds > 0)
  ) {
    console.error(
      unknown.length > 0 ? `Unknown scenario: ${unknown.join(', ')}.\n\n${USAGE}` : USAGE,
    );
    process.exitCode = 2;
    return;
  }

  const flags = (text: string) => text.split(' ').filter((flag) => flag !== '');
  const sides: [Side, Side] = [
    { build: positionals[0]!, logLevel: values['log-a'], nodeFlags: flags(values['node-a']) },
    { build: positionals[1]!, logLevel: values['log-b'], nodeFlags: flags(values['node-b']) },
  ];
  const pinning = pinLoadToOneCore();
  const core = pinning?.serverCore;
  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      stopChildren();
      process.exit(status);
    });
  }
  const rows: string[][] = [];
  try {
    const builds = [await start('A', sides[0], core), await start('B', sides[1], core)];
    for (const scenario of scenarios) {
      for (const build of builds) await slice(build, scenario, seconds);
      const a: number[] = [];
      const b: number[] = [];
      for (let index = 0; index < slices; index += 1) {
        for (const which of index % 2 === 0 ? [0, 1] : [1, 0]) {
          (which === 0 ? a : b).push(await slice(builds[which]!, scenario, seconds));
        }
        console.error(`${scenario}: slice ${index + 1} of ${slices}`);
      }
      const ratios = a.map((aUs, index) => b[index]! / aUs);
      rows.push([
        scenario,
        format.fixed(1)(median(a)),
        format.fixed(1)(median(b)),
        format.fixed(3)(median(ratios)),
        `${format.fixed(3)(Math.min(...ratios))}–${format.fixed(3)(Math.max(...ratios))}`,
      ]);
    }
  } finally {
    stopChildren();
  }
  console.log(
    `A: ${describe(sides[0])}, B: ${describe(sides[1])}; ${slices} slices of ${seconds} s, server${core === undefined ? 's unpinned' : `s on core ${core}, load on core ${pinning!.loadCore}`}.\n`,
  );
  console.log(
    formatTable(
      [
        'scenario',
        'A: CPU µs per request',
        'B: CPU µs per request',
        'B / A, median of slices',
        'B / A, range',
      ],
      rows,
    ),
  );
}

await main();
