import { openListStore } from '../storage/kept-lists.ts';
import { hasListRow, isPrepared, keptListKeys, listRowsDeletion } from '../storage/schema.ts';
import { newListRows, prepare } from '../storage/schema.ts';
import { immediateWrites, runStatements, type SqlDatabase } from '../storage/sql.ts';
import type { StoredList } from '../store/changes.ts';
import { firstRequestUnanswered, listToReplay } from '../store/idempotency.ts';
import { ListStore } from '../store/list-store.ts';
import { LiveList, storeOptionsOf, type ListContext } from './live-list.ts';
import type { ListDirectory, OpenListDirectory } from './live-list.ts';

export interface SingleListOptions {
  /** The named list's id, or undefined where the default list is held. */
  readonly listId: string | undefined;
  /** Whether the default list is kept in `sql` too; a named list always is. */
  readonly keepDefault: boolean;
  readonly sql: SqlDatabase;
  /** Wipes the storage, as deleting the named list must. */
  deleteAll(): Promise<void>;
}

/**
 * The one list of a place such as a Durable Object: the default list, or a named one, always kept,
 * since the place may leave memory; none, and nothing written, until `create` or once deleted.
 */
export function singleList(options: SingleListOptions): OpenListDirectory {
  return (context) => {
    if (options.listId !== undefined) return namedList(options.listId, context, options);
    // Opened on first use: unreadable storage fails the request, or the wake adopting streams.
    let list: LiveList | undefined;
    return {
      get defaultList() {
        return (list ??= options.keepDefault
          ? openKept(options.sql, '', context)
          : new LiveList(new ListStore(storeOptionsOf(context)), context));
      },
      named: new Map(),
      create: () => Promise.reject(new Error('The default list’s place makes no lists.')),
      delete: () => Promise.reject(new Error('The default list cannot be deleted.')),
      inMemory: () => (list === undefined ? [] : [list]),
    };
  };
}

function openKept(sql: SqlDatabase, listId: string, context: ListContext): LiveList {
  prepare(sql);
  const store = openListStore(sql, immediateWrites(sql), '', listId, storeOptionsOf(context));
  return new LiveList(store, context);
}

function namedList(listId: string, context: ListContext, place: SingleListOptions): ListDirectory {
  const { sql, deleteAll } = place;
  /** Undefined until looked for; null when there is none. */
  let list: LiveList | null | undefined;
  let making = false;
  const find = (id: string): LiveList | undefined => {
    if (id !== listId) return undefined;
    // Reading the storage writes nothing: a place whose list is gone stays empty.
    if (list === undefined) {
      list = isPrepared(sql) && hasListRow(sql, '') ? openKept(sql, id, context) : null;
    }
    return list ?? undefined;
  };
  /** The key the list was made with, if it was; kept after the list is deleted. */
  const keys = () => (isPrepared(sql) ? keptListKeys(sql) : new Map<string, StoredList>());
  return {
    defaultList: undefined,
    named: { get: find },
    async create(title, idempotencyKey, admit) {
      if (making) throw firstRequestUnanswered();
      const exists = find(listId) !== undefined;
      const made = idempotencyKey === undefined ? undefined : keys().get(idempotencyKey);
      if (made !== undefined) return listToReplay(made, title, exists);
      if (exists) throw new Error('This place holds its list already.');
      // Other requests come in while `admit` waits: a retry with the key must not pass it by.
      making = true;
      try {
        await admit?.();
      } finally {
        making = false;
      }
      prepare(sql);
      const rows = newListRows('', { id: listId, title }, idempotencyKey);
      sql.transaction(() => runStatements(sql, rows));
      list = openKept(sql, listId, context);
      return list.store.resource;
    },
    async delete(deleted) {
      // Gone at once for the requests that come while the storage is wiped; back if that fails.
      list = null;
      // A key stays, in the transaction that removes the rest: no crash lets it remake the list.
      const wipe =
        keys().size > 0
          ? async () => sql.transaction(() => runStatements(sql, listRowsDeletion('')))
          : deleteAll;
      try {
        await deleted.delete(wipe);
      } catch (error) {
        list = deleted;
        throw error;
      }
    },
    inMemory: () => (list ? [list] : []),
  };
}
