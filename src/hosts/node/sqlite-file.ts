import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqlDatabase, SqlValue } from '../../todos/sql-database.ts';
import { nodeSqlite } from './node-sqlite.ts';

/** Why the storage file cannot be used, in words an operator can act on. */
export class StorageFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot use the storage file ${file}: ${reason}`);
    this.name = 'StorageFileError';
  }
}

export interface SqliteFile extends SqlDatabase {
  close(): void;
}

/**
 * The SQLite database in `file`, made if missing, checked writable at once. WAL with
 * `synchronous = FULL`: a commit reaches the disk before it returns, so an answer that went
 * out is never lost, not even to a power cut, and readers never wait for a writer.
 */
export function openSqliteFile(file: string): SqliteFile {
  const sqlite = nodeSqlite();
  let db: DatabaseSync;
  try {
    db = new sqlite.DatabaseSync(file);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
    // Takes the write lock: a read-only file or folder fails here, not on the first create.
    db.exec('BEGIN IMMEDIATE; COMMIT;');
  } catch (error) {
    throw new StorageFileError(file, (error as Error).message);
  }
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  let depth = 0;
  return {
    all: <Row extends object>(sql: string, ...params: SqlValue[]) =>
      prepared(sql).all(...params) as Row[],
    run: (sql, ...params) => void prepared(sql).run(...params),
    transaction<T>(work: () => T): T {
      // Nested work joins the transaction already open.
      if (depth > 0) return work();
      db.exec('BEGIN IMMEDIATE');
      depth += 1;
      try {
        const result = work();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        depth -= 1;
      }
    },
    close: () => db.close(),
  };
}
