import { openListStore } from '../storage/kept-lists.ts';
import { hasListRow, isPrepared, keptListKeys, listRowsDeletion } from '../storage/schema.ts';
import { newListRows, prepare } from '../storage/schema.ts';
import { immediateWrites, runStatements, type SqlDatabase } from '../storage/sql.ts';
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
    if (options.listId !== undefined)
      return new NamedListDirectory(context, options, options.listId);
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

class NamedListDirectory implements ListDirectory {
  readonly defaultList = undefined;
  readonly named = { get: (id: string) => this.#find(id) };
  readonly #context: ListContext;
  readonly #options: SingleListOptions;
  readonly #listId: string;
  /** Undefined until looked for; null when there is none. */
  #list: LiveList | null | undefined;
  #making = false;

  constructor(context: ListContext, options: SingleListOptions, listId: string) {
    this.#context = context;
    this.#options = options;
    this.#listId = listId;
  }

  #find(id: string): LiveList | undefined {
    if (id !== this.#listId) return undefined;
    const { sql } = this.#options;
    // Reading the storage writes nothing: a place whose list is gone stays empty.
    if (this.#list === undefined) {
      this.#list = isPrepared(sql) && hasListRow(sql, '') ? openKept(sql, id, this.#context) : null;
    }
    return this.#list ?? undefined;
  }

  readonly create: ListDirectory['create'] = async (title, idempotencyKey, admit) => {
    if (this.#making) throw firstRequestUnanswered();
    const exists = this.#find(this.#listId) !== undefined;
    const keyed = this.#keys().find((kept) => kept.idempotencyKey === idempotencyKey);
    if (keyed !== undefined) return listToReplay(keyed.made, title, exists);
    if (exists) throw new Error('This place holds its list already.');
    // Other requests come in while `admit` waits: a retry with the key must not pass it by.
    this.#making = true;
    try {
      await admit?.();
    } finally {
      this.#making = false;
    }
    const { sql } = this.#options;
    prepare(sql);
    const rows = newListRows('', { id: this.#listId, title }, idempotencyKey);
    sql.transaction(() => runStatements(sql, rows));
    this.#list = openKept(sql, this.#listId, this.#context);
    return this.#list.store.resource;
  };

  async delete(list: LiveList): Promise<void> {
    // Gone at once for the requests that come while the storage is wiped; back if that fails.
    this.#list = null;
    const { sql, deleteAll } = this.#options;
    // A key is kept in the transaction that removes the rest: no crash frees it to remake the list.
    const wipe =
      this.#keys().length > 0
        ? async () => sql.transaction(() => runStatements(sql, listRowsDeletion('')))
        : deleteAll;
    try {
      await list.delete(wipe);
    } catch (error) {
      this.#list = list;
      throw error;
    }
  }

  inMemory(): Iterable<LiveList> {
    return this.#list ? [this.#list] : [];
  }

  /** The key the list was made with, if it was; kept after the list is deleted. */
  #keys() {
    return isPrepared(this.#options.sql) ? keptListKeys(this.#options.sql) : [];
  }
}
