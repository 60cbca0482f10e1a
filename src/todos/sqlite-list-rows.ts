import { eventIdOf } from '../live/events.ts';
import type { SqlDatabase } from './sql-database.ts';
import { openSqliteTodoStore, type SqliteTodoStoreOptions } from './sqlite-store.ts';
import { newRunId } from './memory-store.ts';
import { type TodoStore } from './store.ts';

/** Adds the row of a new list, empty, under `title`, in a run of its own. */
export function addListRow(db: SqlDatabase, key: string, title: string): void {
  const run = newRunId();
  db.run(
    'INSERT INTO lists (list, title_json, title_version, run, sequence) VALUES (?, ?, ?, ?, 0)',
    key,
    JSON.stringify(title),
    eventIdOf({ run, sequence: 0 }),
    run,
  );
}

/** Whether the list under `key` is kept in `db`. */
export function hasListRow(db: SqlDatabase, key: string): boolean {
  return db.all('SELECT 1 FROM lists WHERE list = ?', key).length > 0;
}

/** Removes a list: its row, its items and its changes. */
export function deleteListRows(db: SqlDatabase, key: string): void {
  db.transaction(() => {
    for (const table of ['list_items', 'list_changes', 'lists']) {
      db.run(`DELETE FROM ${table} WHERE list = ?`, key);
    }
  });
}

/** The default list kept in `db` (key `''`), its row added the first time. */
export function openDefaultSqliteStore(
  db: SqlDatabase,
  options: Omit<SqliteTodoStoreOptions, 'key' | 'listId'>,
): TodoStore {
  return db.transaction(() => {
    if (!hasListRow(db, '')) addListRow(db, '', '');
    return openSqliteTodoStore(db, { ...options, key: '', listId: '' });
  });
}
