import { openList } from '../storage/kept-lists.ts';
import {
  hasListRow,
  keptListKeys,
  listKeyRow,
  newListRow,
  type KeyedList,
} from '../storage/list-rows.ts';
import { isPrepared, prepare } from '../storage/schema.ts';
import { immediateWrites, runStatements, type SqlDatabase } from '../storage/sql.ts';
import type { StoredList } from '../store/changes.ts';
import { ListStore } from '../store/list-store.ts';
import { storeOptionsOf, type ListDirectory, type OpenListDirectory } from './directory.ts';
import { listToReplay } from './list-keys.ts';
import { LiveList, type ListContext } from './live-list.ts';

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
 * Its changes are each committed at once: a Durable Object holds its answers back until they
 * are durable.
 */
export function singleList(options: SingleListOptions): OpenListDirectory {
  return (context) => {
    if (options.listId !== undefined) return new NamedList(context, options, options.listId);
    const { sql, keepDefault } = options;
    // Opened on first use, as a request's: storage it cannot read is that request's error.
    let list: LiveList | undefined;
    const open = () => {
      const storeOptions = storeOptionsOf(context);
      const store = keepDefault
        ? (prepare(sql), openList(sql, immediateWrites(sql), '', '', storeOptions))
        : new ListStore(storeOptions);
      return new LiveList(store, context);
    };
    return {
      get defaultList() {
        return (list ??= open());
      },
      named: new Map(),
      create: () => Promise.reject(new Error('The default list’s place makes no lists.')),
      delete: () => Promise.reject(new Error('The default list cannot be deleted.')),
      inMemory: () => (list === undefined ? [] : [list]),
    };
  };
}

class NamedList implements ListDirectory {
  readonly defaultList = undefined;
  readonly named = { get: (id: string) => this.#find(id) };
  readonly #context: ListContext;
  readonly #sql: SqlDatabase;
  readonly #deleteAll: () => Promise<void>;
  readonly #listId: string;
  /** Undefined until looked for; null when there is none. */
  #list: LiveList | null | undefined;

  constructor(context: ListContext, options: SingleListOptions, listId: string) {
    this.#context = context;
    this.#sql = options.sql;
    this.#deleteAll = () => options.deleteAll();
    this.#listId = listId;
  }

  #find(id: string): LiveList | undefined {
    if (id !== this.#listId) return undefined;
    // Reading the storage writes nothing: a place whose list is gone stays empty.
    if (this.#list === undefined) {
      this.#list = isPrepared(this.#sql) && hasListRow(this.#sql, '') ? this.#open() : null;
    }
    return this.#list ?? undefined;
  }

  async create(title: string, idempotencyKey?: string): Promise<StoredList> {
    const exists = this.#find(this.#listId) !== undefined;
    const keyed = this.#keys().find((kept) => kept.idempotencyKey === idempotencyKey);
    if (keyed !== undefined) return listToReplay(keyed, title, exists);
    if (exists) throw new Error('This place holds its list already.');
    prepare(this.#sql);
    const { row, start } = newListRow('', { id: this.#listId, title });
    const made = start.title;
    const keyRows = idempotencyKey === undefined ? [] : [listKeyRow({ idempotencyKey, made })];
    this.#sql.transaction(() => runStatements(this.#sql, [row, ...keyRows]));
    this.#list = this.#open();
    return made;
  }

  async delete(list: LiveList): Promise<void> {
    // Gone at once for the requests that come, or wait on a body, while the storage is wiped;
    // back as it was if that fails. Its streams hear of it only once it is done.
    this.#list = null;
    list.beginDeletion();
    const keyed = this.#keys();
    try {
      await this.#deleteAll();
    } catch (error) {
      this.#list = list;
      list.cancelDeletion();
      throw error;
    }
    // The key the list was made with stays, so that it cannot make the list again.
    if (keyed.length > 0) {
      prepare(this.#sql);
      this.#sql.transaction(() => runStatements(this.#sql, keyed.map(listKeyRow)));
    }
    list.markDeleted();
  }

  inMemory(): Iterable<LiveList> {
    return this.#list ? [this.#list] : [];
  }

  /** The key the list was made with, if it was; kept after the list is deleted. */
  #keys(): KeyedList[] {
    return isPrepared(this.#sql) ? keptListKeys(this.#sql) : [];
  }

  #open(): LiveList {
    const sql = this.#sql;
    const options = storeOptionsOf(this.#context);
    return new LiveList(
      openList(sql, immediateWrites(sql), '', this.#listId, options),
      this.#context,
    );
  }
}
