import { commitIn, type SqlDatabase, type SqlStatement, type SqlWrites } from './sql.ts';
import type { Write, WriteDone } from './sql.ts';

/** Past a few hundred, a larger batch saves almost no fsync but holds the event loop longer. */
const MAX_BATCH = 256;

/** How long a batch may gather: a few commits on a disk that flushes in a few hundred µs. */
const MAX_WAIT_MS = 2;

export interface Committer {
  commit(statements: readonly SqlStatement[], done: WriteDone): void;
}

/**
 * Commits in this thread, which waits for each fsync (node:sqlite is synchronous): on one core a
 * thread of its own cost more in hand-offs than the wait, and its batches came out smaller.
 */
export function committerOn(db: SqlDatabase): Committer {
  return { commit: (statements, done) => commitIn(db, statements, done) };
}

export interface CommitCounts {
  /** At index n, how many commits wrote n changes. */
  readonly sizes: readonly number[];
  /** Time with a commit under way: in this thread, time the event loop did nothing else. */
  readonly busyMs: number;
}

/**
 * Many changes in one transaction and one fsync: a batch gathers while each turn of the event
 * loop brings more. A failed batch fails its changes and every one queued behind it.
 */
export class GroupCommit implements SqlWrites {
  readonly #committer: Committer;
  /** Calls back once the turn of the event loop is over (Node: `setImmediate`). */
  readonly #schedule: (turnEnded: () => void) => void;
  #queue: { readonly write: Write; readonly done: WriteDone }[] = [];
  /** Changes made after `close`: they fail once those made before it are done. */
  readonly #refused: WriteDone[] = [];
  /** A batch is gathering or being committed. */
  #busy = false;
  #closed = false;
  #closing: (() => void) | undefined;
  readonly #sizes: number[] = [];
  #busyMs = 0;

  constructor(committer: Committer, schedule: (turnEnded: () => void) => void) {
    this.#committer = committer;
    this.#schedule = schedule;
  }

  get counts(): CommitCounts {
    return { sizes: Array.from(this.#sizes, (count) => count ?? 0), busyMs: this.#busyMs };
  }

  enqueue(write: Write, done: WriteDone): void {
    if (this.#closed) this.#refused.push(done);
    else this.#queue.push({ write, done });
    this.#gather();
  }

  /** Commits every change still waiting and takes no more: the database is closing. */
  close(): Promise<void> {
    this.#closed = true;
    return new Promise((resolve) => {
      this.#closing = resolve;
      this.#gather();
    });
  }

  #gather(): void {
    if (this.#busy) return;
    if (this.#queue.length === 0) {
      const closed = new Error('The storage is closed: the service is stopping.');
      for (const done of this.#refused.splice(0)) done(closed);
      return this.#closing?.();
    }
    this.#busy = true;
    const since = performance.now();
    let queued = this.#queue.length;
    const turnEnded = () => {
      const more = this.#queue.length > queued;
      queued = this.#queue.length;
      const full = queued >= MAX_BATCH || performance.now() - since >= MAX_WAIT_MS;
      if (more && !full && !this.#closed) return this.#schedule(turnEnded);
      this.#send();
    };
    this.#schedule(turnEnded);
  }

  #send(): void {
    const batch = this.#queue.splice(0, MAX_BATCH);
    const transaction = {};
    const started = performance.now();
    const finished = (error?: unknown) => {
      this.#busy = false;
      this.#busyMs += performance.now() - started;
      if (error === undefined) {
        this.#sizes[batch.length] = (this.#sizes[batch.length] ?? 0) + 1;
        for (const { done } of batch) done();
      } else {
        for (const { done } of [...batch, ...this.#queue.splice(0)]) done(error);
      }
      this.#gather();
    };
    let statements: SqlStatement[];
    try {
      statements = batch.flatMap(({ write }) => write(transaction));
    } catch (error) {
      return finished(error ?? new Error('The commit failed.'));
    }
    this.#committer.commit(statements, finished);
  }
}
