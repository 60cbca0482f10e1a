import type { SqlDatabase } from '../todos/sql-database.ts';
import { prepareSchema } from '../todos/sqlite-schema.ts';
import { addListRow, deleteListRows, openDefaultSqliteStore } from '../todos/sqlite-list-rows.ts';
import { openSqliteTodoStore } from '../todos/sqlite-store.ts';
import type { ListStores } from './list-stores.ts';

/**
 * Every list kept in one SQLite database, under its id as the key (the default list's is
 * `''`): what a restart of the Node host with `storage.file` comes back to.
 */
export function sqliteListStores(db: SqlDatabase): ListStores {
  prepareSchema(db);
  return {
    openDefault: (options) => openDefaultSqliteStore(db, options),
    openKept: (options) =>
      db
        .all<{ list: string }>("SELECT list FROM lists WHERE list != ''")
        .map(({ list }) => openSqliteTodoStore(db, { ...options, key: list, listId: list })),
    create: (info, options) =>
      db.transaction(() => {
        addListRow(db, info.id, info.title);
        return openSqliteTodoStore(db, { ...options, key: info.id, listId: info.id });
      }),
    remove: (listId) => deleteListRows(db, listId),
  };
}
