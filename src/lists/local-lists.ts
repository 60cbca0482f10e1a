import { HttpProblem } from '../http/problem.ts';
import type { StoredList, TodoStore } from '../todos/store.ts';
import type { ListContext, ListDirectory, OpenListDirectory } from './list-directory.ts';
import { newListId } from './list-id.ts';
import { listStillBeingMade, listToReplay, type KeyedList } from './keyed-lists.ts';
import {
  memoryListStores,
  storeOptionsOf,
  type ListStores,
  type StoreOptions,
} from './list-stores.ts';
import { TodoList } from './todo-list.ts';

/** A key whose create is under way. */
const BEING_MADE = 'being made';

/** The documented default of `limits.maxLists`. */
export const DEFAULT_MAX_LISTS = 10000;

export interface LocalListsOptions {
  /** Where the lists are kept; memory only by default. */
  readonly stores?: ListStores;
  /** The default list's store, in place of the one `stores` opens (a test's own). */
  readonly defaultStore?: TodoStore;
  /** The most named lists; creating one more answers 507. */
  readonly maxLists?: number;
}

/**
 * Every list in this process's memory, in a Map by id: the default list and up to `maxLists`
 * named ones, kept in storage too when `stores` does. A probe with an id nobody made is one Map
 * lookup. What the Node host and the in-process handler serve.
 */
export function localLists(options: LocalListsOptions = {}): OpenListDirectory {
  return (context) => new LocalLists(context, options);
}

class LocalLists implements ListDirectory {
  readonly defaultList: TodoList;
  readonly #named = new Map<string, TodoList>();
  readonly #context: ListContext;
  readonly #stores: ListStores;
  readonly #storeOptions: StoreOptions;
  readonly #maxLists: number;
  /**
   * The keys lists were made with, a deleted list's too, so that its key cannot make it again:
   * a key is remembered as long as the process (with storage, as the storage file) lasts.
   */
  readonly #keys = new Map<string, KeyedList | typeof BEING_MADE>();
  /** Lists being made or deleted: each holds its place under `maxLists` until it is done. */
  #changing = 0;

  constructor(context: ListContext, options: LocalListsOptions) {
    this.#context = context;
    this.#stores = options.stores ?? memoryListStores;
    this.#maxLists = options.maxLists ?? DEFAULT_MAX_LISTS;
    this.#storeOptions = storeOptionsOf(context);
    const defaultStore = options.defaultStore ?? this.#stores.openDefault(this.#storeOptions);
    this.defaultList = this.#listOf(defaultStore);
    for (const store of this.#stores.openKept(this.#storeOptions)) {
      this.#named.set(store.listInfo.id, this.#listOf(store));
    }
    for (const keyed of this.#stores.keptKeys()) this.#keys.set(keyed.idempotencyKey, keyed);
  }

  find(id: string): TodoList | undefined {
    return this.#named.get(id);
  }

  async create(title: string, idempotencyKey?: string): Promise<StoredList> {
    const keyed = idempotencyKey === undefined ? undefined : this.#keys.get(idempotencyKey);
    if (keyed === BEING_MADE) throw listStillBeingMade();
    if (keyed !== undefined) return listToReplay(keyed, title, this.#named.has(keyed.made.list.id));
    if (this.#named.size + this.#changing >= this.#maxLists) {
      throw new HttpProblem(
        507,
        `The service holds the most lists allowed, ${this.#maxLists} (limits.maxLists); ` +
          'delete some first.',
      );
    }
    this.#changing += 1;
    if (idempotencyKey !== undefined) this.#keys.set(idempotencyKey, BEING_MADE);
    let store: TodoStore;
    try {
      const info = { id: newListId(), title };
      store = await this.#stores.create(info, this.#storeOptions, idempotencyKey);
    } catch (error) {
      if (idempotencyKey !== undefined) this.#keys.delete(idempotencyKey);
      throw error;
    } finally {
      this.#changing -= 1;
    }
    this.#named.set(store.listInfo.id, this.#listOf(store));
    const made = { list: store.listInfo, version: store.listVersion };
    if (idempotencyKey !== undefined) this.#keys.set(idempotencyKey, { idempotencyKey, made });
    return made;
  }

  async delete(list: TodoList): Promise<void> {
    // Gone at once for the requests that come, or wait on a body, while its storage is
    // deleted; back as it was if that fails. Its streams hear of it only once it is done.
    this.#named.delete(list.id);
    this.#changing += 1;
    list.beginDeletion();
    try {
      await this.#stores.remove(list.id);
    } catch (error) {
      this.#named.set(list.id, list);
      list.cancelDeletion();
      throw error;
    } finally {
      this.#changing -= 1;
    }
    list.markDeleted();
  }

  *held(): Iterable<TodoList> {
    yield this.defaultList;
    yield* this.#named.values();
  }

  #listOf(store: TodoStore): TodoList {
    return new TodoList(store, this.#context);
  }
}
