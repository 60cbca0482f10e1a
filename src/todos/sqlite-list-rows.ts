import { eventIdOf } from '../live/events.ts';
import type { ListInfo } from '../lists/list-info.ts';
import type { SqlDatabase } from './sql-database.ts';
import { runStatements, statement, type SqlStatement } from './sql-statements.ts';
import {
  openSqliteTodoStore,
  type KeptSqliteList,
  type SqliteTodoStoreOptions,
} from './sqlite-store.ts';
import { newRunId } from './run-id.ts';
import type { TodoStore } from './store.ts';

function listRow(key: string, title: string, run: string): SqlStatement {
  return statement(
    'INSERT INTO lists (list, title_json, title_version, run, sequence) VALUES (?, ?, ?, ?, 0)',
    key,
    JSON.stringify(title),
    eventIdOf({ run, sequence: 0 }),
    run,
  );
}

/**
 * A new list under `key`, empty, titled as `info` says, in a run of its own: the statement
 * that adds its row, and the list as it starts, with nothing to read back.
 */
export function newList(key: string, info: ListInfo): { row: SqlStatement; start: KeptSqliteList } {
  const run = newRunId();
  const version = eventIdOf({ run, sequence: 0 });
  return {
    row: listRow(key, info.title, run),
    start: {
      run,
      sequence: 0,
      list: { list: info, version },
      items: [],
      history: { baseId: version, changes: [] },
      itemRows: { sequence: 0, after: [] },
    },
  };
}

/** Adds the row of a new list, empty, under `title`, in a run of its own. */
export function addListRow(db: SqlDatabase, key: string, title: string): void {
  runStatements(db, [listRow(key, title, newRunId())]);
}

/** Whether the list under `key` is kept in `db`. */
export function hasListRow(db: SqlDatabase, key: string): boolean {
  return db.all('SELECT 1 FROM lists WHERE list = ?', key).length > 0;
}

/** The statements that remove a list: its items, its changes and its row. */
export function listDeletion(key: string): SqlStatement[] {
  return ['list_items', 'list_changes', 'list_change_keys', 'lists'].map((table) =>
    statement(`DELETE FROM ${table} WHERE list = ?`, key),
  );
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
