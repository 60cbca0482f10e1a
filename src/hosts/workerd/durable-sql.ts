import type { SqlDatabase } from '../../todos/sql-database.ts';

/**
 * A Durable Object's SQLite storage as the store's SQL seam. Its writes are held back from the
 * network until they are durable (the output gate), so no answer outruns its commit.
 */
export function durableSql(storage: DurableObjectStorage): SqlDatabase {
  return {
    all: <Row extends object>(sql: string, ...params: (string | number | null)[]) =>
      storage.sql.exec(sql, ...params).toArray() as Row[],
    run: (sql, ...params) => void storage.sql.exec(sql, ...params),
    transaction: (work) => storage.transactionSync(work),
  };
}
