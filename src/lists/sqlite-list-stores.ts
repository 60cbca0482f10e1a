import type { SqlDatabase } from '../todos/sql-database.ts';
import { committed, type SqlWrites } from '../todos/sql-writes.ts';
import { prepareSchema } from '../todos/sqlite-schema.ts';
import { listDeletion, newList, openDefaultSqliteStore } from '../todos/sqlite-list-rows.ts';
import {
  keptListKeys,
  keyDeletion,
  listKeyRow,
  prepareKeyDeletions,
} from '../todos/sqlite-list-keys.ts';
import { openSqliteTodoStore, sqliteTodoStore } from '../todos/sqlite-store.ts';
import type { ListStores } from './list-stores.ts';

/**
 * Every list kept in one SQLite database, under its id as the key (the default list's is
 * `''`): what a restart of the Node host with `storage.file` comes back to. Every write, of an
 * item or of a list, goes through `writes`, so each is committed after those made before it.
 */
export function sqliteListStores(db: SqlDatabase, writes: SqlWrites): ListStores {
  prepareSchema(db);
  prepareKeyDeletions(db);
  return {
    openDefault: (options) => openDefaultSqliteStore(db, { ...options, writes }),
    openKept: (options) =>
      db
        .all<{ list: string }>("SELECT list FROM lists WHERE list != ''")
        .map(({ list }) =>
          openSqliteTodoStore(db, { ...options, writes, key: list, listId: list }),
        ),
    create: async (info, options, idempotencyKey) => {
      const { row, start } = newList(info.id, info);
      const made = { list: info, version: start.list.version };
      const keyRows = idempotencyKey === undefined ? [] : [listKeyRow({ idempotencyKey, made })];
      await committed(writes, [row, ...keyRows]);
      return sqliteTodoStore(start, { ...options, writes, key: info.id });
    },
    remove: (listId, deletedKeysKept) =>
      committed(writes, [...keyDeletion(listId, deletedKeysKept), ...listDeletion(listId)]),
    keptKeys: () => keptListKeys(db),
  };
}
