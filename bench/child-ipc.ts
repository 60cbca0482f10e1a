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

/** The settings every server child takes, as JSON in its first argument. */
export interface ChildSettings {
  /** `limits.maxItems`, the same for every server in one run. */
  readonly maxItems: number;
}

export type ParentRequest =
  | { readonly type: 'memory' }
  | { readonly type: 'cpu' }
  | { readonly type: 'seed'; readonly count: number };

export type ChildMessage =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'memory'; readonly sample: MemorySample }
  | { readonly type: 'cpu'; readonly sample: CpuSample }
  | { readonly type: 'seed'; readonly ids: readonly string[] };

/** What the harness needs of the server a child runs. */
export interface ChildServer {
  readonly url: string;
  openStreams(): number;
  /** Stores one item as a create would, straight into the server's list; returns its id. */
  create(title: string, completed: boolean): string;
}

export function childSettings(): ChildSettings {
  return JSON.parse(process.argv[2] ?? '{}') as ChildSettings;
}

/**
 * In a server child: tells the parent where it listens, answers its requests one at a time,
 * and exits when the parent goes away (a clean exit, so `--cpu-prof` can write its profile).
 */
export function serveParent(server: ChildServer): void {
  const { gc } = globalThis;
  if (gc === undefined) throw new Error('A server child needs --expose-gc.');
  const reply = (message: ChildMessage) => process.send?.(message);

  process.on('message', (request: ParentRequest) => {
    if (request.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply({ type: 'cpu', sample: { userMs: user / 1000, systemMs: system / 1000 } });
    } else if (request.type === 'seed') {
      // Distinct titles, so no two items share one string as items made by requests never do.
      const ids = Array.from({ length: request.count }, (_, n) =>
        server.create(`Water the plants, batch ${n}`, n % 3 === 0),
      );
      reply({ type: 'seed', ids });
    } else {
      // The second collection frees what finalizers of the first let go.
      gc();
      void nextTurn().then(() => {
        gc();
        const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
        reply({
          type: 'memory',
          sample: { heapUsed, rss, external, arrayBuffers, openStreams: server.openStreams() },
        });
      });
    }
  });
  process.once('disconnect', () => process.exit(0));
  reply({ type: 'ready', url: server.url });
}
