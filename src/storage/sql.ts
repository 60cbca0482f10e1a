/** A value SQLite stores and both hosts' drivers accept. */
export type SqlValue = string | number | null;

/**
 * The little of SQLite the storage needs, so that its SQL is written once for both hosts:
 * `node:sqlite` on Node, a Durable Object's own SQLite storage on workerd. Both run statements
 * synchronously.
 */
export interface SqlDatabase {
  /** The rows of a query, each as an object keyed by column. */
  all<Row extends object>(sql: string, ...params: SqlValue[]): Row[];
  run(sql: string, ...params: SqlValue[]): void;
  /** Runs `work` as one transaction: all its statements are committed, or none. */
  transaction<T>(work: () => T): T;
}

/**
 * One statement, as data, to run where and when its transaction is. With `orFail`, a statement
 * whose RETURNING must give a row; when it gives none, the write fails with `orFail`.
 */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  readonly orFail?: string;
}

export function statement(sql: string, ...params: SqlValue[]): SqlStatement {
  return { sql, params };
}

export function runStatements(db: SqlDatabase, statements: readonly SqlStatement[]): void {
  for (const { sql, params, orFail } of statements) {
    if (orFail === undefined) db.run(sql, ...params);
    else if (db.all(sql, ...params).length === 0) throw new Error(orFail);
  }
}

/** What a write hears once its transaction is over: nothing if it was committed, else why not. */
export type WriteDone = (error?: unknown) => void;

/** The transaction a write is in: writes handed the same one share it. */
export interface Batch {
  readonly id: number;
}

/** One change's write, asked for its statements when its transaction is formed. */
export type Write = (batch: Batch) => readonly SqlStatement[];

/**
 * How writes reach a database: each in a transaction of its own, or many in one
 * (`GroupCommit`). A write's `done` is called once its transaction is committed or has failed,
 * in the order the writes were enqueued; when one fails, every write enqueued after it that is
 * not yet done fails too, since it may have been judged against the one that failed.
 */
export interface SqlWrites {
  enqueue(write: Write, done: WriteDone): void;
}

/**
 * Every write in a transaction of its own, done before `enqueue` returns: a Durable Object's,
 * whose storage coalesces the writes of one turn and holds answers back until they are durable
 * (the output gate), so no answer outruns its commit.
 */
export function immediateWrites(db: SqlDatabase): SqlWrites {
  let batches = 0;
  return {
    enqueue(write, done) {
      try {
        db.transaction(() => runStatements(db, write({ id: (batches += 1) })));
      } catch (error) {
        return done(error ?? new Error('The transaction failed.'));
      }
      done();
    },
  };
}

/** Writes `statements` as one write through `writes`; resolves once they are committed. */
export function committed(writes: SqlWrites, statements: readonly SqlStatement[]): Promise<void> {
  return new Promise((resolve, reject) =>
    writes.enqueue(
      () => statements,
      (error) => (error === undefined ? resolve() : reject(error)),
    ),
  );
}
