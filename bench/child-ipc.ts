import { setImmediate as nextTurn } from 'node:timers/promises';

/** What a server child reports of itself, measured after two full garbage collections. */
export interface MemorySample {
  readonly heapUsed: number;
  readonly rss: number;
  /** Memory outside the V8 heap; Node counts `arrayBuffers` in it already. */
  readonly external: number;
  readonly arrayBuffers: number;
  /** The streams the server itself still counts as open. */
  readonly openStreams: number;
}

/** CPU time the child has used since it started, in milliseconds. */
export interface CpuSample {
  readonly userMs: number;
  readonly systemMs: number;
}

export type ParentRequest = { readonly type: 'memory' } | { readonly type: 'cpu' };

export type ChildMessage =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'memory'; readonly sample: MemorySample }
  | { readonly type: 'cpu'; readonly sample: CpuSample };

/**
 * In a server child: tells the parent where it listens, answers its requests one at a time,
 * and exits when the parent goes away (a clean exit, so `--cpu-prof` can write its profile).
 */
export function serveParent(url: string, openStreams: () => number): void {
  const { gc } = globalThis;
  if (gc === undefined) throw new Error('A server child needs --expose-gc.');
  const reply = (message: ChildMessage) => process.send?.(message);

  process.on('message', (request: ParentRequest) => {
    if (request.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply({ type: 'cpu', sample: { userMs: user / 1000, systemMs: system / 1000 } });
      return;
    }
    // The second collection frees what finalizers of the first let go.
    gc();
    void nextTurn().then(() => {
      gc();
      const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
      reply({
        type: 'memory',
        sample: { heapUsed, rss, external, arrayBuffers, openStreams: openStreams() },
      });
    });
  });
  process.once('disconnect', () => process.exit(0));
  reply({ type: 'ready', url });
}
