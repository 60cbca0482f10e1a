import type { SqlDatabase } from '../todos/sql-database.ts';
import { immediateWrites } from '../todos/sql-writes.ts';
import { hasTable, prepareSchema } from '../todos/sqlite-schema.ts';
import { addListRow, hasListRow, openDefaultSqliteStore } from '../todos/sqlite-list-rows.ts';
import { openSqliteTodoStore } from '../todos/sqlite-store.ts';
import { MemoryTodoStore } from '../todos/memory-store.ts';
import { type StoredList, type TodoStore } from '../todos/store.ts';
import type { ListContext, ListDirectory, OpenListDirectory } from './list-directory.ts';
import { storeOptionsOf } from './list-stores.ts';
import { TodoList } from './todo-list.ts';

/** Which one list a place holds, and where it keeps it. */
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
 * The one list a place holds, such as a Durable Object: the default list, kept as
 * `keepDefault` says, or a named one, kept in SQLite whatever else is said, since its place may
 * leave memory at any time and must find its list again. A named list is looked for on first
 * use; until `create` has run, or once it is deleted, there is none, and nothing is written.
 */
export function singleList(options: SingleListOptions): OpenListDirectory {
  return (context) =>
    options.listId === undefined
      ? new DefaultList(context, options)
      : new NamedList(context, options, options.listId);
}

class DefaultList implements ListDirectory {
  readonly defaultList: TodoList;

  constructor(context: ListContext, { keepDefault, sql }: SingleListOptions) {
    const storeOptions = storeOptionsOf(context);
    let store: TodoStore;
    if (keepDefault) {
      prepareSchema(sql);
      store = openDefaultSqliteStore(sql, { ...storeOptions, writes: immediateWrites(sql) });
    } else {
      store = new MemoryTodoStore(storeOptions);
    }
    this.defaultList = new TodoList(store, context);
  }

  find(): undefined {
    return undefined;
  }

  create(): Promise<StoredList> {
    return Promise.reject(new Error('The default list’s place makes no lists.'));
  }

  delete(): Promise<void> {
    return Promise.reject(new Error('The default list cannot be deleted.'));
  }

  held(): Iterable<TodoList> {
    return [this.defaultList];
  }
}

class NamedList implements ListDirectory {
  readonly defaultList = undefined;
  readonly #context: ListContext;
  readonly #options: SingleListOptions;
  readonly #listId: string;
  /** Undefined until looked for; null when there is none. */
  #list: TodoList | null | undefined;

  constructor(context: ListContext, options: SingleListOptions, listId: string) {
    this.#context = context;
    this.#options = options;
    this.#listId = listId;
  }

  find(id: string): TodoList | undefined {
    if (id !== this.#listId) return undefined;
    if (this.#list === undefined) {
      const { sql } = this.#options;
      // Reading the schema writes nothing: a place whose list is gone stays empty.
      const kept = hasTable(sql, 'lists') && hasListRow(sql, '');
      if (kept) prepareSchema(sql);
      this.#list = kept ? this.#open() : null;
    }
    return this.#list ?? undefined;
  }

  async create(title: string): Promise<StoredList> {
    if (this.find(this.#listId) !== undefined)
      throw new Error('This place holds its list already.');
    prepareSchema(this.#options.sql);
    addListRow(this.#options.sql, '', title);
    this.#list = this.#open();
    return { list: this.#list.store.listInfo, version: this.#list.store.listVersion };
  }

  async delete(list: TodoList): Promise<void> {
    // Gone at once for the requests that come, or wait on a body, while the storage is wiped;
    // back as it was if that fails. Its streams hear of it only once it is done.
    this.#list = null;
    list.beginDeletion();
    try {
      await this.#options.deleteAll();
    } catch (error) {
      this.#list = list;
      list.cancelDeletion();
      throw error;
    }
    list.markDeleted();
  }

  held(): Iterable<TodoList> {
    return this.#list ? [this.#list] : [];
  }

  #open(): TodoList {
    const { sql } = this.#options;
    const store = openSqliteTodoStore(sql, {
      ...storeOptionsOf(this.#context),
      writes: immediateWrites(sql),
      key: '',
      listId: this.#listId,
    });
    return new TodoList(store, this.#context);
  }
}
