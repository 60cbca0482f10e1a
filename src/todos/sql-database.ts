/** A value SQLite stores and both hosts' drivers accept. */
export type SqlValue = string | number | null;

/**
 * The little of SQLite the durable store needs, so its SQL is written once for both hosts:
 * `node:sqlite` on Node, a Durable Object's own SQLite storage on workerd. Both run statements
 * synchronously, which keeps the store's interface synchronous too.
 */
export interface SqlDatabase {
  /** The rows of a query, each as an object keyed by column. */
  all<Row extends object>(sql: string, ...params: SqlValue[]): Row[];
  run(sql: string, ...params: SqlValue[]): void;
  /** Runs `work` as one transaction: all its statements are committed, or none. */
  transaction<T>(work: () => T): T;
}
