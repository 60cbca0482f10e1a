import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sleep } from './bounds.ts';
import { logSink } from './log-sink.ts';
import type {
  ChildMessage,
  ChildSettings,
  CpuSample,
  MemorySample,
  ParentRequest,
} from './child-ipc.ts';

export const SERVER_KINDS = ['ours', 'bare', 'fastify'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export const SERVER_NAMES: Readonly<Record<ServerKind, string>> = {
  ours: 'ours',
  bare: 'bare node:http',
  fastify: 'Fastify',
};

const SCRIPTS: Readonly<Record<ServerKind, URL>> = {
  ours: new URL('./service-child.js', import.meta.url),
  bare: new URL('./baselines/bare-child.js', import.meta.url),
  fastify: new URL('./baselines/fastify-child.js', import.meta.url),
};

export interface StartOptions extends ChildSettings {
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
  /** Lets the child exit by itself (so a CPU profile gets written), killing it after 5 s. */
  stop(): Promise<void>;
}

type Reply<T extends ChildMessage['type']> = Extract<ChildMessage, { type: T }>;

interface Pending {
  readonly type: ChildMessage['type'];
  readonly resolve: (message: ChildMessage) => void;
  readonly reject: (error: Error) => void;
}

const running = new Set<ChildProcess>();

/** Kills every child still running: on an error, a timeout or Ctrl-C. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

function spawnChild(
  kind: ServerKind,
  { core, cpuProfile, ...settings }: StartOptions,
): ChildProcess {
  const nodeArgs = ['--expose-gc'];
  if (cpuProfile) {
    nodeArgs.push(
      '--cpu-prof',
      '--cpu-prof-dir',
      cpuProfile.dir,
      '--cpu-prof-name',
      cpuProfile.name,
    );
  }
  const args = [...nodeArgs, fileURLToPath(SCRIPTS[kind]), JSON.stringify(settings)];
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

  let pending: Pending | undefined;
  let failure: Error | undefined;
  child.on('message', (message: ChildMessage) => {
    if (pending?.type !== message.type) return;
    const { resolve } = pending;
    pending = undefined;
    resolve(message);
  });
  const fail = (error: Error) => {
    running.delete(child);
    failure ??= error;
    pending?.reject(failure);
    pending = undefined;
  };
  child.on('error', fail);
  child.on('exit', (code, signal) =>
    fail(new Error(`The ${kind} server child exited (${signal ?? code}).\n${stderr}`)),
  );

  // One question at a time, in the order asked: the child answers a memory question late.
  let asked: Promise<unknown> = Promise.resolve();
  const ask = <T extends ChildMessage['type']>(type: T, request?: ParentRequest) => {
    const answer = asked.then(
      () =>
        new Promise<Reply<T>>((resolve, reject) => {
          if (failure) return reject(failure);
          pending = { type, resolve: resolve as (message: ChildMessage) => void, reject };
          if (request) child.send(request);
        }),
    );
    asked = answer.catch(() => {});
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

  const memory = async () => (await ask('memory', { type: 'memory' })).sample;
  const settledMemory = async (limitMs: number) => {
    let sample = await memory();
    for (let waited = 0; sample.openStreams > 0 && waited < limitMs; waited += 100) {
      await sleep(100);
      sample = await memory();
    }
    return sample;
  };
  const { url } = await ask('ready');
  return {
    kind,
    url,
    memory,
    settledMemory,
    cpu: async () => (await ask('cpu', { type: 'cpu' })).sample,
    seed: async (count) => (await ask('seed', { type: 'seed', count })).ids,
    stop,
  };
}
