import { HttpProblem } from '../http/problem.ts';
import type { ListStores, StoreOptions } from '../storage/kept-lists.ts';
import type { KeyedList } from '../storage/schema.ts';
import { firstRequestUnanswered, listToReplay } from '../store/idempotency.ts';
import { ListStore } from '../store/list-store.ts';
import { newListId } from './list-id.ts';
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
  readonly stores?: ListStores;
  /** The most named lists; creating one more answers 507. */
  readonly maxLists: number;
}

/** Every list in this process's memory, in a Map by id, kept in storage too if `stores` does. */
export function localLists(options: LocalListsOptions): OpenListDirectory {
  return (context) => new LocalLists(context, options);
}

const BEING_MADE = 'being made';

/**
 * The keys of the live lists and of the latest `maxLists` deletions, which answer 410 rather than
 * make their list again: at most twice as many keys as lists; an older key makes a new list.
 */
class LocalLists implements ListDirectory {
  readonly defaultList: LiveList;
  readonly named = new Map<string, LiveList>();
  readonly #context: ListContext;
  readonly #stores: ListStores;
  readonly #storeOptions: StoreOptions;
  readonly #maxLists: number;
  /** Lists being made or deleted: each holds its place under `maxLists` until it is done. */
  #listsChanging = 0;
  readonly #keys = new Map<string, KeyedList | typeof BEING_MADE>();
  readonly #keyOfList = new Map<string, string>();
  /** Deleted lists' keys, the oldest deletion first. */
  readonly #deletedKeys = new Set<string>();

  constructor(context: ListContext, options: LocalListsOptions) {
    this.#context = context;
    this.#stores = options.stores ?? memoryListStores;
    this.#maxLists = options.maxLists;
    this.#storeOptions = storeOptionsOf(context);
    this.defaultList = new LiveList(this.#stores.openDefault(this.#storeOptions), context);
    for (const store of this.#stores.openKept(this.#storeOptions)) {
      this.named.set(store.resource.info.id, new LiveList(store, context));
    }
    // The deleted lists' keys come in the order they were deleted.
    for (const keyed of this.#stores.keptKeys()) {
      const { idempotencyKey: key, made } = keyed;
      this.#keys.set(key, keyed);
      if (this.named.has(made.info.id)) this.#keyOfList.set(made.info.id, key);
      else this.#keepDeletedKey(key);
    }
  }

  readonly create: ListDirectory['create'] = async (title, idempotencyKey, admit) => {
    const keyed = idempotencyKey === undefined ? undefined : this.#keys.get(idempotencyKey);
    if (keyed === BEING_MADE) throw firstRequestUnanswered();
    if (keyed !== undefined) {
      return listToReplay(keyed.made, title, this.named.has(keyed.made.info.id));
    }
    if (this.named.size + this.#listsChanging >= this.#maxLists) {
      throw new HttpProblem(
        507,
        `The service holds the most lists allowed, ${this.#maxLists} (limits.maxLists); ` +
          'delete some first.',
      );
    }
    this.#listsChanging += 1;
    if (idempotencyKey !== undefined) this.#keys.set(idempotencyKey, BEING_MADE);
    let store: ListStore;
    try {
      // Its place and its key are held meanwhile: a retry with the key must not pass it by.
      await admit?.();
      const info = { id: newListId(), title };
      store = await this.#stores.create(info, this.#storeOptions, idempotencyKey);
    } catch (error) {
      // Forgotten, so that a retry makes the list (or is counted again, if refused).
      if (idempotencyKey !== undefined) this.#keys.delete(idempotencyKey);
      throw error;
    } finally {
      this.#listsChanging -= 1;
    }
    const made = store.resource;
    this.named.set(made.info.id, new LiveList(store, this.#context));
    if (idempotencyKey !== undefined) {
      this.#keys.set(idempotencyKey, { idempotencyKey, made });
      this.#keyOfList.set(made.info.id, idempotencyKey);
    }
    return made;
  };

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
    const key = this.#keyOfList.get(list.id);
    if (key === undefined) return;
    this.#keyOfList.delete(list.id);
    this.#keepDeletedKey(key);
  }

  *inMemory(): Iterable<LiveList> {
    yield this.defaultList;
    yield* this.named.values();
  }

  #keepDeletedKey(key: string): void {
    this.#deletedKeys.add(key);
    for (const oldest of this.#deletedKeys) {
      if (this.#deletedKeys.size <= this.#maxLists) break;
      this.#deletedKeys.delete(oldest);
      this.#keys.delete(oldest);
    }
  }
}
