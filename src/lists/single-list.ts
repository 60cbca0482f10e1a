import type { SqlDatabase } from '../todos/sql-database.ts';
import { immediateWrites } from '../todos/sql-writes.ts';
import { hasTable, prepareSchema } from '../todos/sqlite-schema.ts';
import { hasListRow, newList, openDefaultSqliteStore } from '../todos/sqlite-list-rows.ts';
import { keptListKeys, listKeyRow } from '../todos/sqlite-list-keys.ts';
import { runStatements } from '../todos/sql-statements.ts';
import { openSqliteTodoStore } from '../todos/sqlite-store.ts';
import { MemoryTodoStore } from '../todos/memory-store.ts';
import { type StoredList, type TodoStore } from '../todos/store.ts';
import type { ListContext, ListDirectory, OpenListDirectory } from './list-directory.ts';
import { listToReplay, type KeyedList } from './keyed-lists.ts';
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

  async create(title: string, idempotencyKey?: string): Promise<StoredList> {
    const held = this.find(this.#listId) !== undefined;
    const keyed = this.#keyed().find((kept) => kept.idempotencyKey === idempotencyKey);
    if (keyed !== undefined) return listToReplay(keyed, title, held);
    if (held) throw new Error('This place holds its list already.');
    const { sql } = this.#options;
    prepareSchema(sql);
    const { row, start } = newList('', { id: this.#listId, title });
    const made = { list: start.list.list, version: start.list.version };
    const keyRows = idempotencyKey === undefined ? [] : [listKeyRow({ idempotencyKey, made })];
    sql.transaction(() => runStatements(sql, [row, ...keyRows]));
    this.#list = this.#open();
    return made;
  }

  async delete(list: TodoList): Promise<void> {
    // Gone at once for the requests that come, or wait on a body, while the storage is wiped;
    // back as it was if that fails. Its streams hear of it only once it is done.
    this.#list = null;
    list.beginDeletion();
    const keyed = this.#keyed();
    try {
      await this.#options.deleteAll();
    } catch (error) {
      this.#list = list;
      list.cancelDeletion();
      throw error;
    }
    // The key the list was made with stays, so that it cannot make the list again.
    if (keyed.length > 0) keepKeys(this.#options.sql, keyed);
    list.markDeleted();
  }

  held(): Iterable<TodoList> {
    return this.#list ? [this.#list] : [];
  }

  /** The key the list was made with, if it was; kept after the list is deleted. */
  #keyed(): KeyedList[] {
    return hasTable(this.#options.sql, 'list_keys') ? keptListKeys(this.#options.sql) : [];
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

function keepKeys(sql: SqlDatabase, keyed: readonly KeyedList[]): void {
  prepareSchema(sql);
  sql.transaction(() => runStatements(sql, keyed.map(listKeyRow)));
}
