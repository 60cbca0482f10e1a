import type { KeyedList } from '../lists/keyed-lists.ts';
import type { SqlDatabase } from './sql-database.ts';
import { runStatements, statement, type SqlStatement } from './sql-statements.ts';
import { hasTable } from './sqlite-schema.ts';

interface ListKeyRow {
  idempotency_key: string;
  list: string;
  title_json: string;
  version: string;
}

/**
 * The order deleted lists' keys were deleted in, the latest the highest `sequence`: what a
 * restart needs to remember the same latest ones. A table of its own rather than a column of
 * `list_keys`, so that a file from before it needs no `ALTER TABLE`. The highest row is never
 * trimmed, so a new row's rowid (the highest plus one) keeps rising.
 */
const KEY_DELETIONS = `CREATE TABLE IF NOT EXISTS list_key_deletions (
  sequence INTEGER PRIMARY KEY, idempotency_key TEXT NOT NULL)`;

/**
 * Makes `list_key_deletions` if missing. In a file from before it, the keys of lists already
 * deleted are put in it, in key order (their real order was not kept), so they are trimmed too.
 */
export function prepareKeyDeletions(db: SqlDatabase): void {
  db.transaction(() => {
    if (hasTable(db, 'list_key_deletions')) return;
    runStatements(db, [
      statement(KEY_DELETIONS),
      statement(
        `INSERT INTO list_key_deletions (idempotency_key)
           SELECT idempotency_key FROM list_keys WHERE list NOT IN (SELECT list FROM lists)
           ORDER BY idempotency_key`,
      ),
    ]);
  });
}

/**
 * The row that keeps the key a list was made with and that create's answer. It outlives the
 * list, for a while: see `keyDeletion`.
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

/**
 * The statements, run with a list's deletion, that mark its key (if it was made with one) as
 * the latest deleted, and forget the deleted keys beyond the latest `kept`.
 */
export function keyDeletion(listId: string, kept: number): SqlStatement[] {
  const forgotten = `SELECT sequence FROM list_key_deletions
    WHERE sequence <= (SELECT MAX(sequence) FROM list_key_deletions) - ?`;
  return [
    statement(
      'INSERT INTO list_key_deletions (idempotency_key) SELECT idempotency_key FROM list_keys WHERE list = ?',
      listId,
    ),
    statement(
      `DELETE FROM list_keys WHERE idempotency_key IN
         (SELECT idempotency_key FROM list_key_deletions WHERE sequence IN (${forgotten}))`,
      kept,
    ),
    statement(`DELETE FROM list_key_deletions WHERE sequence IN (${forgotten})`, kept),
  ];
}

/**
 * Every key a list was made with, deleted lists' included: the live lists' first, then the
 * deleted ones in the order they were deleted. (A Durable Object has no deletions table: its
 * one key comes first.)
 */
export function keptListKeys(db: SqlDatabase): KeyedList[] {
  const ordered = hasTable(db, 'list_key_deletions')
    ? ' LEFT JOIN list_key_deletions USING (idempotency_key) ORDER BY sequence'
    : '';
  return db
    .all<ListKeyRow>(`SELECT idempotency_key, list, title_json, version FROM list_keys${ordered}`)
    .map((row) => ({
      idempotencyKey: row.idempotency_key,
      made: {
        list: { id: row.list, title: JSON.parse(row.title_json) as string },
        version: row.version,
      },
    }));
}
