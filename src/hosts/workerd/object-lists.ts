import type { ListDirectory, OpenListDirectory } from '../../lists/list-directory.ts';
import type { StoreOptions } from '../../lists/list-stores.ts';
import { TodoList } from '../../lists/todo-list.ts';
import type { SqlDatabase } from '../../todos/sql-database.ts';
import { hasTable, prepareSchema } from '../../todos/sqlite-schema.ts';
import {
  addListRow,
  hasListRow,
  openDefaultSqliteStore,
  openSqliteTodoStore,
} from '../../todos/sqlite-store.ts';
import { MemoryTodoStore, type StoredListInfo, type TodoStore } from '../../todos/store.ts';
import type { StorageKind } from './vars-config.ts';

/** Which list an object holds, and where its storage is. */
export interface ObjectListsOptions {
  /** The named list's id, or undefined in the default list's object. */
  readonly listId: string | undefined;
  /** Where the default list is kept; a named list is always kept in SQLite. */
  readonly storage: StorageKind;
  readonly sql: SqlDatabase;
  /** Wipes the object's storage, as deleting its list must. */
  deleteAll(): Promise<void>;
}

/**
 * The one list a Durable Object holds. The default list's object keeps it as `STORAGE` says.
 * A named list's object keeps it in its SQLite storage whatever `STORAGE` says: an object
 * leaves memory after a minute or two without requests, and a named list must still be there
 * when it comes back. It finds its list there on first use; until `create` has run, or once
 * the list is deleted, there is none, and nothing has been written.
 */
export function objectLists(options: ObjectListsOptions): OpenListDirectory {
  return (context) => {
    const storeOptions: StoreOptions = {
      keepChanges: context.config.sse.replayEvents,
      reportError: (error) => context.host.reportError(error),
    };
    const listOf = (store: TodoStore) => new TodoList(store, context.config.sse, context.host);
    const { listId, sql } = options;
    if (listId === undefined) {
      const openDefault = () => {
        if (options.storage === 'memory') return new MemoryTodoStore(storeOptions);
        prepareSchema(sql);
        return openDefaultSqliteStore(sql, storeOptions);
      };
      return defaultOnly(listOf(openDefault()));
    }
    const open = () => openSqliteTodoStore(sql, { ...storeOptions, key: '', listId });
    return new NamedListObject(
      listId,
      options,
      () => listOf(open()),
      (title) => {
        prepareSchema(sql);
        addListRow(sql, '', title);
        return listOf(open());
      },
    );
  };
}

function defaultOnly(list: TodoList): ListDirectory {
  return {
    defaultList: list,
    find: () => undefined,
    create: () => Promise.reject(new Error('The default list’s object makes no lists.')),
    delete: () => Promise.reject(new Error('The default list cannot be deleted.')),
    held: () => [list],
  };
}

class NamedListObject implements ListDirectory {
  readonly defaultList = undefined;
  readonly #listId: string;
  readonly #options: ObjectListsOptions;
  readonly #load: () => TodoList;
  readonly #make: (title: string) => TodoList;
  /** Undefined until looked for; null when there is none. */
  #list: TodoList | null | undefined;

  constructor(
    listId: string,
    options: ObjectListsOptions,
    load: () => TodoList,
    make: (title: string) => TodoList,
  ) {
    this.#listId = listId;
    this.#options = options;
    this.#load = load;
    this.#make = make;
  }

  find(id: string): TodoList | undefined {
    if (id !== this.#listId) return undefined;
    if (this.#list === undefined) {
      const { sql } = this.#options;
      // Reading the schema writes nothing: an object whose list is gone stays empty.
      this.#list = hasTable(sql, 'lists') && hasListRow(sql, '') ? this.#load() : null;
    }
    return this.#list ?? undefined;
  }

  async create(title: string): Promise<StoredListInfo> {
    if (this.find(this.#listId) !== undefined) {
      throw new Error('This object holds its list already.');
    }
    this.#list = this.#make(title);
    return this.#list.store.info;
  }

  async delete(list: TodoList): Promise<void> {
    // Gone at once for every request that comes while the storage is wiped.
    this.#list = null;
    list.markDeleted();
    await this.#options.deleteAll();
  }

  held(): Iterable<TodoList> {
    return this.#list ? [this.#list] : [];
  }
}
