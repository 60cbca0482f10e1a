import { HttpProblem } from '../http/problem.ts';
import type { StoredList, TodoStore } from '../todos/store.ts';
import type { ListContext, ListDirectory, OpenListDirectory } from './list-directory.ts';
import { newListId } from './list-id.ts';
import { ListKeys } from './list-keys.ts';
import {
  memoryListStores,
  storeOptionsOf,
  type ListStores,
  type StoreOptions,
} from './list-stores.ts';
import { TodoList } from './todo-list.ts';

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
  readonly #keys: ListKeys;
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
    // The live lists' keys are bounded by `maxLists` already; the deleted lists' keys are kept
    // for as many deletions, so that the keys held stay within twice the lists held, and a
    // deleted list's key is refused for at least as long as it takes to make as many lists
    // as the service can hold.
    this.#keys = new ListKeys(this.#stores.keptKeys(), (id) => this.#named.has(id), this.#maxLists);
  }

  find(id: string): TodoList | undefined {
    return this.#named.get(id);
  }

  async create(title: string, idempotencyKey?: string): Promise<StoredList> {
    if (idempotencyKey !== undefined) {
      const replayed = this.#keys.replay(idempotencyKey, title, (id) => this.#named.has(id));
      if (replayed !== undefined) return replayed;
    }
    if (this.#named.size + this.#changing >= this.#maxLists) {
      throw new HttpProblem(
        507,
        `The service holds the most lists allowed, ${this.#maxLists} (limits.maxLists); ` +
          'delete some first.',
      );
    }
    this.#changing += 1;
    if (idempotencyKey !== undefined) this.#keys.beginMaking(idempotencyKey);
    let store: TodoStore;
    try {
      const info = { id: newListId(), title };
      store = await this.#stores.create(info, this.#storeOptions, idempotencyKey);
    } catch (error) {
      if (idempotencyKey !== undefined) this.#keys.abandon(idempotencyKey);
      throw error;
    } finally {
      this.#changing -= 1;
    }
    this.#named.set(store.listInfo.id, this.#listOf(store));
    const made = { list: store.listInfo, version: store.listVersion };
    if (idempotencyKey !== undefined) this.#keys.made({ idempotencyKey, made });
    return made;
  }

  async delete(list: TodoList): Promise<void> {
    // Gone at once for the requests that come, or wait on a body, while its storage is
    // deleted; back as it was if that fails. Its streams hear of it only once it is done.
    this.#named.delete(list.id);
    this.#changing += 1;
    list.beginDeletion();
    try {
      await this.#stores.remove(list.id, this.#maxLists);
    } catch (error) {
      this.#named.set(list.id, list);
      list.cancelDeletion();
      throw error;
    } finally {
      this.#changing -= 1;
    }
    this.#keys.deleted(list.id);
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
