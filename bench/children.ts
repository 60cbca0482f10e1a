import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { type Answers, type CommitCounts, type MemorySample, type Question } from './child-ipc.ts';
import { logSink } from './log-sink.ts';

export const SERVER_KINDS = ['ours', 'sqlite', 'bare', 'fastify', 'fastify-log'] as const;
/** The servers of the bench, and the two builds `--ab` compares. */
export type ServerKind = (typeof SERVER_KINDS)[number] | 'A' | 'B';

/** Each kind's name in the tables, its script, and the arguments it takes after `maxItems`. */
const SERVERS: Readonly<Record<ServerKind, readonly [string, ...string[]]>> = {
  ours: ['ours', 'service-child.js'],
  sqlite: ['ours, SQLite', 'service-child.js', 'sqlite'],
  bare: ['bare node:http', 'baselines/bare-child.js'],
  fastify: ['Fastify', 'baselines/fastify-child.js'],
  'fastify-log': ['Fastify, logging', 'baselines/fastify-child.js', 'log'],
  A: ['A'],
  B: ['B'],
};
export const nameOf = (kind: ServerKind) => SERVERS[kind][0];

/** A server under test, in its own process. */
export interface ServerChild {
  readonly kind: ServerKind;
  readonly url: string;
  memory(): Promise<MemorySample>;
  /** CPU time the child has used since it started, in ms. */
  cpu(): Promise<number>;
  /** Creates `count` items in the server's list; returns their ids. */
  seed(count: number): Promise<readonly string[]>;
  /** Makes `count` named lists of one item each, straight in the server; returns their ids. */
  seedLists(count: number): Promise<readonly string[]>;
  /** The commits to storage so far; null for a server without storage. */
  commits(): Promise<CommitCounts | null>;
  /** Lets the child exit by itself (so a CPU profile gets written), killing it after 5 s. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** `limits.maxItems`, the same for every server in one run. */
  readonly maxItems: number;
  /** The core to run on, through `taskset`; any core when undefined. */
  readonly core: number | undefined;
  /** Where `--cpu-prof` writes the child's profile, named `name`. */
  readonly profileDir: string | undefined;
}

const running = new Set<ChildProcess>();

/** Kills every child still running: on an error or Ctrl-C. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Starts `node args` on `core`, its stdout to the log sink, and keeps it for killAllChildren. */
export function spawnServer(args: readonly string[], core: number | undefined, env = process.env) {
  // The child logs to stdout as in prod; the log sink reads it and drops it.
  const stdio: StdioOptions = ['ignore', logSink(), 'pipe', 'ipc'];
  const child =
    core === undefined
      ? spawn(process.execPath, args, { stdio, env })
      : spawn('taskset', ['-c', String(core), process.execPath, ...args], { stdio, env });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Starts a server child of `kind` and waits for it to say where it listens. */
export async function startServerChild(
  kind: (typeof SERVER_KINDS)[number],
  name: string,
  { maxItems, core, profileDir }: StartOptions,
): Promise<ServerChild> {
  const [, script, ...scriptArgs] = SERVERS[kind];
  const profile = profileDir
    ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${name}.cpuprofile`]
    : [];
  const path = fileURLToPath(new URL(script!, import.meta.url));
  const child = spawnServer(
    ['--expose-gc', ...profile, path, String(maxItems), ...scriptArgs],
    core,
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-2000);
  });

  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`The ${kind} server child exited (${signal ?? code}).\n${stderr}`)),
    ),
  );
  exited.catch(() => {});
  // The harness asks a child one question at a time: the next message is its answer.
  const next = <T>() =>
    Promise.race([once(child, 'message').then(([answer]) => answer as T), exited]);
  const ask = <Q extends keyof Answers>(question: Q, count?: number) => {
    child.send({ ask: question, count } satisfies Question);
    return next<Answers[Q]>();
  };

  return {
    kind,
    url: await next<string>(),
    memory: () => ask('memory'),
    cpu: () => ask('cpu'),
    seed: (count) => ask('seed', count),
    seedLists: (count) => ask('seedLists', count),
    commits: () => ask('commits'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.disconnect();
      }),
  };
}
