import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, CpuSample, MemorySample, ParentRequest } from './child-ipc.ts';

export type ServerKind = 'ours' | 'bare';

const SCRIPTS: Readonly<Record<ServerKind, URL>> = {
  ours: new URL('./service-child.js', import.meta.url),
  bare: new URL('./bare-child.js', import.meta.url),
};

/** A server under test, in its own process. */
export interface ServerChild {
  readonly kind: ServerKind;
  readonly url: string;
  memory(): Promise<MemorySample>;
  cpu(): Promise<CpuSample>;
  /** Lets the child exit by itself (so a CPU profile gets written), killing it after 3 s. */
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

/** Forks a server child with `--expose-gc` and waits for it to say where it listens. */
export async function startServerChild(
  kind: ServerKind,
  extraArgs: readonly string[] = [],
): Promise<ServerChild> {
  const child = fork(fileURLToPath(SCRIPTS[kind]), [], {
    execArgv: ['--expose-gc', ...extraArgs],
    // The child logs to stdout as in prod; the parent reads it and drops it.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  running.add(child);
  child.stdout?.resume();
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
  child.on('exit', (code, signal) => {
    running.delete(child);
    failure ??= new Error(`The ${kind} server child exited (${signal ?? code}).\n${stderr}`);
    pending?.reject(failure);
    pending = undefined;
  });

  // One question at a time: the runner always waits for each answer.
  const ask = <T extends ChildMessage['type']>(type: T, request?: ParentRequest) =>
    new Promise<Reply<T>>((resolve, reject) => {
      if (failure) return reject(failure);
      pending = { type, resolve: resolve as (message: ChildMessage) => void, reject };
      if (request) child.send(request);
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      failure ??= new Error(`The ${kind} server child was stopped.`);
      child.disconnect();
    });

  const { url } = await ask('ready');
  return {
    kind,
    url,
    memory: async () => (await ask('memory', { type: 'memory' })).sample,
    cpu: async () => (await ask('cpu', { type: 'cpu' })).sample,
    stop,
  };
}
