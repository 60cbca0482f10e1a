import { HttpProblem } from '../http/problem.ts';
import type { StoredList, TodoStore } from '../todos/store.ts';
import type { ListContext, ListDirectory, OpenListDirectory } from './list-directory.ts';
import { newListId } from './list-id.ts';
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
  }

  find(id: string): TodoList | undefined {
    return this.#named.get(id);
  }

  async create(title: string): Promise<StoredList> {
    if (this.#named.size + this.#changing >= this.#maxLists) {
      throw new HttpProblem(
        507,
        `The service holds the most lists allowed, ${this.#maxLists} (limits.maxLists); ` +
          'delete some first.',
      );
    }
    this.#changing += 1;
    let store: TodoStore;
    try {
      store = await this.#stores.create({ id: newListId(), title }, this.#storeOptions);
    } finally {
      this.#changing -= 1;
    }
    this.#named.set(store.listInfo.id, this.#listOf(store));
    return { list: store.listInfo, version: store.listVersion };
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
