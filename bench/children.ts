import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  READY,
  type Answers,
  type ChildMessage,
  type CommitCounts,
  type CpuSample,
  type MemorySample,
  type Question,
} from './child-ipc.ts';
import { logSink } from './log-sink.ts';

export const SERVER_KINDS = [
  'ours',
  'sqlite',
  'adapter',
  'adapter-log',
  'bare',
  'fastify',
] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export const SERVER_NAMES: Readonly<Record<ServerKind, string>> = {
  ours: 'ours',
  sqlite: 'ours, SQLite',
  adapter: 'the adapter, trivial handler',
  'adapter-log': 'the adapter, trivial handler, our log line',
  bare: 'bare node:http',
  fastify: 'Fastify',
};

/** Each kind's script, and the arguments it takes after `maxItems`. */
const SCRIPTS: Readonly<Record<ServerKind, readonly [URL, ...string[]]>> = {
  ours: [new URL('./service-child.js', import.meta.url)],
  sqlite: [new URL('./service-sqlite-child.js', import.meta.url)],
  adapter: [new URL('./baselines/adapter-child.js', import.meta.url)],
  'adapter-log': [new URL('./baselines/adapter-child.js', import.meta.url), 'log'],
  bare: [new URL('./baselines/bare-child.js', import.meta.url)],
  fastify: [new URL('./baselines/fastify-child.js', import.meta.url)],
};

export interface StartOptions {
  /** `limits.maxItems`, the same for every server in one run. */
  readonly maxItems: number;
  /** The core to run on, through `taskset`; any core when undefined. */
  readonly core?: number;
  /** Where `--cpu-prof` writes this child's profile, and its file name there. */
  readonly cpuProfile?: { readonly dir: string; readonly name: string };
}

/** A server under test, in its own process. */
export interface ServerChild {
  readonly kind: ServerKind;
  readonly url: string;
  memory(): Promise<MemorySample>;
  /** Memory once the server counts no open stream, asking again for up to `limitMs`. */
  settledMemory(limitMs: number): Promise<MemorySample>;
  cpu(): Promise<CpuSample>;
  /** Creates `count` items straight in the server's list, bypassing HTTP; returns their ids. */
  seed(count: number): Promise<readonly string[]>;
  /** Makes `count` named lists of one item each, straight in the server; returns their ids. */
  seedLists(count: number): Promise<readonly string[]>;
  /** The commits to storage so far; null for a server without storage. */
  commits(): Promise<CommitCounts | null>;
  /** Lets the child exit by itself (so a CPU profile gets written), killing it after 5 s. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills every child still running: on an error, a timeout or Ctrl-C. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

function spawnChild(kind: ServerKind, { maxItems, core, cpuProfile }: StartOptions): ChildProcess {
  const profile = cpuProfile
    ? ['--cpu-prof', '--cpu-prof-dir', cpuProfile.dir, '--cpu-prof-name', cpuProfile.name]
    : [];
  const [script, ...scriptArgs] = SCRIPTS[kind];
  const args = ['--expose-gc', ...profile, fileURLToPath(script), String(maxItems), ...scriptArgs];
  // The child logs to stdout as in prod, and the harness reads it and drops it.
  const stdio: StdioOptions = ['ignore', logSink(), 'pipe', 'ipc'];
  return core === undefined
    ? spawn(process.execPath, args, { stdio })
    : spawn('taskset', ['-c', String(core), process.execPath, ...args], { stdio });
}

/** Starts a server child and waits for it to say where it listens. */
export async function startServerChild(
  kind: ServerKind,
  options: StartOptions,
): Promise<ServerChild> {
  const child = spawnChild(kind, options);
  running.add(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr = (stderr + text).slice(-2000);
  });

  type Waiting = { resolve: (answer: unknown) => void; reject: (error: Error) => void };
  const waiting = new Map<number, Waiting>();
  let failure: Error | undefined;
  const fail = (error: Error) => {
    running.delete(child);
    failure ??= error;
    for (const { reject } of waiting.values()) reject(failure);
    waiting.clear();
  };
  child.on('error', fail);
  child.on('exit', (code, signal) =>
    fail(new Error(`The ${kind} server child exited (${signal ?? code}).\n${stderr}`)),
  );
  child.on('message', ({ id, answer }: ChildMessage) => {
    waiting.get(id)?.resolve(answer);
    waiting.delete(id);
  });
  const answerTo = <T>(id: number) =>
    new Promise<T>((resolve, reject) => {
      if (failure) return reject(failure);
      waiting.set(id, { resolve: resolve as (answer: unknown) => void, reject });
    });
  let asked = 0;
  const ask = <Q extends keyof Answers>(question: Q, count?: number) => {
    const id = asked++;
    const answer = answerTo<Answers[Q]>(id);
    if (!failure) child.send({ id, ask: question, count } satisfies Question);
    return answer;
  };

  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      failure ??= new Error(`The ${kind} server child was stopped.`);
      child.disconnect();
    });
  const memory = () => ask('memory');
  const settledMemory = async (limitMs: number) => {
    let sample = await memory();
    for (let waited = 0; sample.openStreams > 0 && waited < limitMs; waited += 100) {
      await sleep(100);
      sample = await memory();
    }
    return sample;
  };

  return {
    kind,
    url: await answerTo<string>(READY),
    memory,
    settledMemory,
    cpu: () => ask('cpu'),
    seed: (count) => ask('seed', count),
    seedLists: (count) => ask('seedLists', count),
    commits: () => ask('commits'),
    stop,
  };
}
