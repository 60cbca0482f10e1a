/** A value SQLite stores and both hosts' drivers accept. */
export type SqlValue = string | number | null;

/**
 * The little of SQLite the storage needs, so that its SQL is written once for both hosts:
 * `node:sqlite` on Node, a Durable Object's SQLite on workerd. Both run statements synchronously.
 */
export interface SqlDatabase {
  all<Row extends object>(sql: string, ...params: SqlValue[]): Row[];
  run(sql: string, ...params: SqlValue[]): void;
  transaction<T>(work: () => T): T;
}

/** A statement to run in its transaction; with `orFail`, one whose RETURNING must give a row. */
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

export function commitIn(db: SqlDatabase, statements: readonly SqlStatement[], done: WriteDone) {
  try {
    db.transaction(() => runStatements(db, statements));
  } catch (error) {
    return done(error ?? new Error('The commit failed.'));
  }
  done();
}

/** The transaction a write is in, told by identity: writes handed the same one share it. */
export type Transaction = object;

/** One change's write, asked for its statements when its transaction is formed. */
export type Write = (transaction: Transaction) => readonly SqlStatement[];

/**
 * How writes reach a database, done in the order enqueued: when one fails, every later one not
 * yet done fails too, since it may have been judged against the one that failed.
 */
export interface SqlWrites {
  enqueue(write: Write, done: WriteDone): void;
}

/**
 * Every write in a transaction of its own, done before `enqueue` returns: a Durable Object's,
 * whose output gate holds answers back until the turn's writes are durable.
 */
export function immediateWrites(db: SqlDatabase): SqlWrites {
  return { enqueue: (write, done) => commitIn(db, write({}), done) };
}

export function writeAll(writes: SqlWrites, statements: readonly SqlStatement[]): Promise<void> {
  return new Promise((resolve, reject) =>
    writes.enqueue(
      () => statements,
      (error) => (error === undefined ? resolve() : reject(error)),
    ),
  );
}
