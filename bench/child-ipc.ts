import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CommitCounts } from '../src/storage/group-commit.ts';

export type { CommitCounts };

/** What a server child reports of itself, measured after two full garbage collections. */
export interface MemorySample {
  readonly heapUsed: number;
  readonly rss: number;
  /** Memory outside the V8 heap; Node counts `arrayBuffers` in it already. */
  readonly external: number;
  /** The streams the server itself still counts as open. */
  readonly openStreams: number;
}

/** What the parent may ask a server child, and the answer to each. */
export interface Answers {
  readonly memory: MemorySample;
  /** CPU time the child has used since it started, in ms. */
  readonly cpu: number;
  /** The ids of `count` items made straight in the server's list. */
  readonly seed: readonly string[];
  /** The ids of `count` named lists, each with one item, made straight in the server. */
  readonly seedLists: readonly string[];
  /** Of a server with storage: its commits so far; null without. */
  readonly commits: CommitCounts | null;
}

/** A question of the parent; the child answers each in turn, having first sent its URL. */
export interface Question {
  readonly ask: keyof Answers;
  readonly count?: number;
}

/** What the harness needs of the server a child runs. */
export interface ChildServer {
  readonly url: string;
  openStreams(): number;
  /**
   * Stores one item as a create would, straight into the server's list; returns its id, or
   * where there is storage a promise of it once it is durable (creates made together share
   * commits).
   */
  create(title: string, completed: boolean): string | Promise<string>;
  /** Makes a named list holding one item, as its create and a POST would; returns its id. */
  createList?(title: string): Promise<string>;
  /** Where there is storage: its commits so far. */
  commits?(): CommitCounts;
}

/** `limits.maxItems`, the same for every server in one run: the child's one argument. */
export const childMaxItems = (): number => Number(process.argv[2]);

/**
 * In a server child: tells the parent where it listens, answers its questions, and exits when
 * the parent goes away (a clean exit, so `--cpu-prof` can write its profile).
 */
export function serveParent(server: ChildServer): void {
  const { gc } = globalThis;
  if (gc === undefined) throw new Error('A server child needs --expose-gc.');
  const answers = {
    cpu: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
    // Distinct titles, so no two items share one string as items made by requests never do.
    seed: ({ count = 0 }: Question) =>
      Promise.all(
        Array.from({ length: count }, (_, n) =>
          server.create(`Water the plants, batch ${n}`, n % 3 === 0),
        ),
      ),
    seedLists: async ({ count = 0 }: Question) => {
      if (server.createList === undefined) throw new Error('This server has no named lists.');
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1) ids.push(await server.createList(`Chores, list ${n}`));
      return ids;
    },
    commits: () => server.commits?.() ?? null,
    memory: async () => {
      // The second collection frees what finalizers of the first let go.
      gc();
      await nextTurn();
      gc();
      const { heapUsed, rss, external } = process.memoryUsage();
      return { heapUsed, rss, external, openStreams: server.openStreams() };
    },
  } satisfies { [Q in keyof Answers]: (question: Question) => Answers[Q] | Promise<Answers[Q]> };
  process.on('message', async (question: Question) =>
    process.send?.(await answers[question.ask](question)),
  );
  process.once('disconnect', () => process.exit(0));
  process.send?.(server.url);
}
