import { HttpProblem } from '../http/problem.ts';
import type { ListStores, StoreOptions } from '../storage/kept-lists.ts';
import type { StoredList } from '../store/changes.ts';
import { ListStore } from '../store/list-store.ts';
import { newListId } from './list-id.ts';
import { ListKeys } from './list-keys.ts';
import { LiveList, storeOptionsOf, type ListContext } from './live-list.ts';
import type { ListDirectory, OpenListDirectory } from './live-list.ts';

/** Lists in memory only: a restart starts with an empty default list and no other. */
export const memoryListStores: ListStores = {
  openDefault: (options) => new ListStore(options),
  openKept: () => [],
  create: async (info, options) => new ListStore({ ...options, info }),
  remove: async () => {},
  keptKeys: () => [],
};

export interface LocalListsOptions {
  /** Where the lists are kept; memory only by default. */
  readonly stores?: ListStores;
  /** The most named lists; creating one more answers 507. */
  readonly maxLists: number;
}

/**
 * Every list in this process's memory, in a Map by id (a probe with an id nobody made is one
 * lookup): the default list and up to `maxLists` named ones, kept in storage too when `stores`
 * does. What the Node host and the in-process handler serve.
 */
export function localLists(options: LocalListsOptions): OpenListDirectory {
  return (context) => new LocalLists(context, options);
}

class LocalLists implements ListDirectory {
  readonly defaultList: LiveList;
  readonly named = new Map<string, LiveList>();
  readonly #context: ListContext;
  readonly #stores: ListStores;
  readonly #storeOptions: StoreOptions;
  readonly #maxLists: number;
  readonly #keys: ListKeys;
  /** Lists being made or deleted: each holds its place under `maxLists` until it is done. */
  #listsChanging = 0;

  constructor(context: ListContext, options: LocalListsOptions) {
    this.#context = context;
    this.#stores = options.stores ?? memoryListStores;
    this.#maxLists = options.maxLists;
    this.#storeOptions = storeOptionsOf(context);
    this.defaultList = new LiveList(this.#stores.openDefault(this.#storeOptions), context);
    for (const store of this.#stores.openKept(this.#storeOptions)) {
      this.named.set(store.title.info.id, new LiveList(store, context));
    }
    // Deleted lists' keys are kept for `maxLists` deletions: the keys held stay within twice the
    // lists held, and a deleted list's key is refused while as many lists as the service holds
    // are made.
    const exists = (id: string) => this.named.has(id);
    this.#keys = new ListKeys(this.#stores.keptKeys(), exists, this.#maxLists);
  }

  async create(title: string, idempotencyKey?: string): Promise<StoredList> {
    if (idempotencyKey !== undefined) {
      const replayed = this.#keys.replay(idempotencyKey, title);
      if (replayed !== undefined) return replayed;
    }
    if (this.named.size + this.#listsChanging >= this.#maxLists) {
      throw new HttpProblem(
        507,
        `The service holds the most lists allowed, ${this.#maxLists} (limits.maxLists); ` +
          'delete some first.',
      );
    }
    this.#listsChanging += 1;
    if (idempotencyKey !== undefined) this.#keys.beginMaking(idempotencyKey);
    let store: ListStore;
    try {
      const info = { id: newListId(), title };
      store = await this.#stores.create(info, this.#storeOptions, idempotencyKey);
    } catch (error) {
      if (idempotencyKey !== undefined) this.#keys.abandon(idempotencyKey);
      throw error;
    } finally {
      this.#listsChanging -= 1;
    }
    this.named.set(store.title.info.id, new LiveList(store, this.#context));
    if (idempotencyKey !== undefined) this.#keys.made({ idempotencyKey, made: store.title });
    return store.title;
  }

  async delete(list: LiveList): Promise<void> {
    // Gone at once for the requests that come while its storage is deleted; back if that fails.
    this.named.delete(list.id);
    this.#listsChanging += 1;
    try {
      await list.delete(() => this.#stores.remove(list.id, this.#maxLists));
    } catch (error) {
      this.named.set(list.id, list);
      throw error;
    } finally {
      this.#listsChanging -= 1;
    }
    this.#keys.deleted(list.id);
  }

  *inMemory(): Iterable<LiveList> {
    yield this.defaultList;
    yield* this.named.values();
  }
}
