import type { SqlDatabase } from './sql-database.ts';
import { runStatements, type SqlStatement } from './sql-statements.ts';

/** What a write hears once its transaction is over: nothing if it was committed, else why not. */
export type WriteDone = (error?: unknown) => void;

/** The transaction a write is in: writes handed the same one share it. */
export interface Batch {
  readonly id: number;
}

/**
 * One change's write (an item's change, a rename, a list made or deleted): asked for its
 * statements when its transaction is formed, in order with the other writes of that batch.
 */
export type Write = (batch: Batch) => readonly SqlStatement[];

/**
 * How the stores' writes reach a database: each in a transaction of its own, or many in one
 * (`GroupCommit`). Either way a write's statements run inside a transaction, its `done` is
 * called once that transaction is committed or has failed, and writes are done in the order they
 * were enqueued. When a transaction fails, every write enqueued after it that is not yet done
 * fails with it, in the same call: a later write may have been judged against an earlier one.
 */
export interface SqlWrites {
  enqueue(write: Write, done: WriteDone): void;
}

/**
 * Every write in a transaction of its own, committed before `enqueue` returns. For a Durable
 * Object, whose storage coalesces the writes of one turn and holds answers back until they are
 * durable (the output gate), so no answer outruns its commit.
 */
export function immediateWrites(db: SqlDatabase): SqlWrites {
  let batches = 0;
  return {
    enqueue(write, done) {
      try {
        db.transaction(() => runStatements(db, write({ id: (batches += 1) })));
      } catch (error) {
        done(error ?? new Error('The transaction failed.'));
        return;
      }
      done();
    },
  };
}

/** Writes `statements` as one change through `writes`; resolves once they are committed. */
export function committed(writes: SqlWrites, statements: readonly SqlStatement[]): Promise<void> {
  return new Promise((resolve, reject) =>
    writes.enqueue(
      () => statements,
      (error) => (error === undefined ? resolve() : reject(error)),
    ),
  );
}
