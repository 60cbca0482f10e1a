import type { StatementSync } from 'node:sqlite';
import { sqliteListStores } from '../../storage/kept-lists.ts';
import { newViewSecret } from '../../lists/list-id.ts';
import { committerOn, GroupCommit } from '../../storage/group-commit.ts';
import type { SqlDatabase, SqlValue } from '../../storage/sql.ts';

/** The lists kept in the SQLite file `file`, in group commits; if it is unusable, why. */
export function openStorageAt(file: string) {
  let opened: ReturnType<typeof openSqliteFile> | undefined;
  try {
    const database = openSqliteFile(file);
    opened = database;
    const commits = new GroupCommit(committerOn(database), setImmediate);
    return {
      file,
      stores: sqliteListStores(database, commits),
      viewSecret: viewSecretOf(database),
      commits,
      async close() {
        await commits.close();
        database.close();
      },
    };
  } catch (error) {
    opened?.close();
    throw new Error(`cannot use the storage file ${file}: ${(error as Error).message}`);
  }
}

/**
 * The secret the lists' view ids are derived under, made with the file. Its table is beside the
 * lists' format, not in it: a file written before view ids gets one, and keeps its format.
 */
export function viewSecretOf(db: SqlDatabase): string {
  db.run('CREATE TABLE IF NOT EXISTS view_secret (secret TEXT NOT NULL)');
  const [kept] = db.all<{ secret: string }>('SELECT secret FROM view_secret');
  if (kept !== undefined) return kept.secret;
  const secret = newViewSecret();
  db.run('INSERT INTO view_secret (secret) VALUES (?)', secret);
  return secret;
}

/**
 * The SQLite database in `file`, made if missing, checked writable at once. WAL with `synchronous
 * = FULL`: a commit is on disk before its answer goes, and readers never wait for a writer.
 * `node:sqlite` is loaded on first use, so a service that keeps its lists in memory never loads it.
 */
export function openSqliteFile(file: string): SqlDatabase & { close(): void } {
  const db = new (process.getBuiltinModule('node:sqlite').DatabaseSync)(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
  // Takes the write lock: a read-only file or folder fails here, not on the first create.
  db.exec('BEGIN IMMEDIATE; COMMIT;');
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    all: <Row extends object>(sql: string, ...params: SqlValue[]) =>
      prepared(sql).all(...params) as Row[],
    run: (sql, ...params) => void prepared(sql).run(...params),
    transaction<T>(work: () => T): T {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = work();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    close: () => db.close(),
  };
}
