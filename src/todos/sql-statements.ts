import type { SqlDatabase, SqlValue } from './sql-database.ts';

/**
 * One statement of a write, as data, so that it can be run where the database is: in this
 * thread, or in another that holds it. With `orFail`, a statement whose RETURNING must give a
 * row; when it gives none, the write fails with `orFail` as its message.
 */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  readonly orFail?: string;
}

export function statement(sql: string, ...params: SqlValue[]): SqlStatement {
  return { sql, params };
}

/** Runs `statements` in order: inside a transaction, or each on its own. */
export function runStatements(db: SqlDatabase, statements: readonly SqlStatement[]): void {
  for (const { sql, params, orFail } of statements) {
    if (orFail === undefined) db.run(sql, ...params);
    else if (db.all(sql, ...params).length === 0) throw new Error(orFail);
  }
}
