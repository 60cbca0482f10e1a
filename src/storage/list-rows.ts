import { newRunId, type KeptList, type StoredList } from '../store/changes.ts';
import { eventIdOf } from '../model/events.ts';
import type { ListInfo } from '../model/resources.ts';
import { statement, type SqlDatabase, type SqlStatement } from './sql.ts';

/** A list made by a create sent with an `Idempotency-Key`: the key, and that create's answer. */
export interface KeyedList {
  readonly idempotencyKey: string;
  /** The list as the create answered: its id, the title it was made with, its first ETag. */
  readonly made: StoredList;
}

/**
 * A new list under `key`, empty, titled as `info` says, in a run of its own: the statements that
 * add its row, and with `idempotencyKey` the key's, and the list as it starts.
 */
export function newListRows(key: string, info: ListInfo, idempotencyKey?: string) {
  const run = newRunId();
  const version = eventIdOf({ run, sequence: 0 });
  const made = { info, version, json: JSON.stringify(info) };
  const rows = [
    statement(
      `INSERT INTO lists (list, title_json, title_version, run, sequence, items_at)
         VALUES (?, ?, ?, ?, 0, 0)`,
      ...[key, JSON.stringify(info.title), version, run],
    ),
  ];
  if (idempotencyKey !== undefined) rows.push(listKeyRow({ idempotencyKey, made }));
  const start: KeptList = { run, sequence: 0, title: made, items: [], changes: [] };
  return { rows, start };
}

/** Whether the list under `key` is kept in `db`. */
export function hasListRow(db: SqlDatabase, key: string): boolean {
  return db.all('SELECT 1 FROM lists WHERE list = ?', key).length > 0;
}

/**
 * The row that keeps the key a list was made with and that create's answer. It outlives the
 * list, for a while: see `listDeletion`.
 */
export function listKeyRow({ idempotencyKey, made }: KeyedList): SqlStatement {
  return statement(
    'INSERT INTO list_keys (idempotency_key, list, title_json, version) VALUES (?, ?, ?, ?)',
    ...[idempotencyKey, made.info.id, JSON.stringify(made.info.title), made.version],
  );
}

/**
 * The statements that remove a list, its items and its changes, and mark its key (if it was
 * made with one) as the latest deleted, forgetting the deleted keys beyond the latest `keysKept`.
 */
export function listDeletion(listId: string, keysKept: number): SqlStatement[] {
  const forgotten = `SELECT sequence FROM list_key_deletions
    WHERE sequence <= (SELECT MAX(sequence) FROM list_key_deletions) - ?`;
  return [
    statement(
      `INSERT INTO list_key_deletions (idempotency_key)
         SELECT idempotency_key FROM list_keys WHERE list = ?`,
      listId,
    ),
    statement(
      `DELETE FROM list_keys WHERE idempotency_key IN
         (SELECT idempotency_key FROM list_key_deletions WHERE sequence IN (${forgotten}))`,
      keysKept,
    ),
    statement(`DELETE FROM list_key_deletions WHERE sequence IN (${forgotten})`, keysKept),
    ...['list_items', 'list_changes', 'list_change_keys', 'lists'].map((table) =>
      statement(`DELETE FROM ${table} WHERE list = ?`, listId),
    ),
  ];
}

/**
 * Every key a list was made with, deleted lists' included: the live lists' first, then the
 * deleted ones in the order they were deleted.
 */
export function keptListKeys(db: SqlDatabase): KeyedList[] {
  return db
    .all<{ idempotency_key: string; list: string; title_json: string; version: string }>(
      `SELECT idempotency_key, list, title_json, version FROM list_keys
         LEFT JOIN list_key_deletions USING (idempotency_key) ORDER BY sequence`,
    )
    .map((row) => {
      const info = { id: row.list, title: JSON.parse(row.title_json) as string };
      const made = { info, version: row.version, json: JSON.stringify(info) };
      return { idempotencyKey: row.idempotency_key, made };
    });
}
