import type { KeyedList } from '../lists/keyed-lists.ts';
import type { SqlDatabase } from './sql-database.ts';
import { statement, type SqlStatement } from './sql-statements.ts';

interface ListKeyRow {
  idempotency_key: string;
  list: string;
  title_json: string;
  version: string;
}

/**
 * The row that keeps the key a list was made with and that create's answer. It outlives the
 * list: deleting a list leaves it, so the key is refused rather than make the list again.
 */
export function listKeyRow({ idempotencyKey, made }: KeyedList): SqlStatement {
  return statement(
    'INSERT INTO list_keys (idempotency_key, list, title_json, version) VALUES (?, ?, ?, ?)',
    idempotencyKey,
    made.list.id,
    JSON.stringify(made.list.title),
    made.version,
  );
}

/** Every key a list was made with, deleted lists' included. */
export function keptListKeys(db: SqlDatabase): KeyedList[] {
  return db
    .all<ListKeyRow>('SELECT idempotency_key, list, title_json, version FROM list_keys')
    .map((row) => ({
      idempotencyKey: row.idempotency_key,
      made: {
        list: { id: row.list, title: JSON.parse(row.title_json) as string },
        version: row.version,
      },
    }));
}
