import { HttpProblem } from '../http/problem.ts';
import type { ListStores } from '../storage/kept-lists.ts';
import type { StoredList } from '../store/changes.ts';
import { firstRequestUnanswered, listToReplay } from '../store/idempotency.ts';
import { ListStore } from '../store/list-store.ts';
import { newListId } from './list-id.ts';
import { LiveList, storeOptionsOf, type OpenListDirectory } from './live-list.ts';

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

const BEING_MADE = 'being made';

/**
 * Every list in this process's memory, in a Map by id, kept in storage too if `stores` does. The
 * keys of the live lists and of the latest `maxLists` deletions answer 410 rather than make their
 * list again: at most twice as many keys as lists; an older key makes a new list.
 */
export function localLists(options: LocalListsOptions): OpenListDirectory {
  const { stores = memoryListStores, maxLists } = options;
  return (context) => {
    const storeOptions = storeOptionsOf(context);
    const defaultList = new LiveList(stores.openDefault(storeOptions), context);
    const named = new Map<string, LiveList>();
    /** Lists being made or deleted: each holds its place under `maxLists` until it is done. */
    let listsChanging = 0;
    /** Each key's list as made, its create's answer. */
    const keys = new Map<string, StoredList | typeof BEING_MADE>();
    const keyOfList = new Map<string, string>();
    /** Deleted lists' keys, the oldest deletion first. */
    const deletedKeys = new Set<string>();
    const keepDeletedKey = (key: string) => {
      deletedKeys.add(key);
      for (const oldest of deletedKeys) {
        if (deletedKeys.size <= maxLists) break;
        deletedKeys.delete(oldest);
        keys.delete(oldest);
      }
    };
    for (const store of stores.openKept(storeOptions)) {
      named.set(store.resource.info.id, new LiveList(store, context));
    }
    // The deleted lists' keys come in the order they were deleted.
    for (const [key, made] of stores.keptKeys()) {
      keys.set(key, made);
      if (named.has(made.info.id)) keyOfList.set(made.info.id, key);
      else keepDeletedKey(key);
    }
    return {
      defaultList,
      named,
      async create(title, idempotencyKey, admit) {
        const keyed = idempotencyKey === undefined ? undefined : keys.get(idempotencyKey);
        if (keyed === BEING_MADE) throw firstRequestUnanswered();
        if (keyed !== undefined) return listToReplay(keyed, title, named.has(keyed.info.id));
        if (named.size + listsChanging >= maxLists) {
          throw new HttpProblem(
            507,
            `The service holds the most lists allowed, ${maxLists} (limits.maxLists); ` +
              'delete some first.',
          );
        }
        listsChanging += 1;
        if (idempotencyKey !== undefined) keys.set(idempotencyKey, BEING_MADE);
        let store: ListStore;
        try {
          // Its place and its key are held meanwhile: a retry with the key must not pass it by.
          await admit?.();
          const info = { id: newListId(), title };
          store = await stores.create(info, storeOptions, idempotencyKey);
        } catch (error) {
          // Forgotten, so that a retry makes the list (or is counted again, if refused).
          if (idempotencyKey !== undefined) keys.delete(idempotencyKey);
          throw error;
        } finally {
          listsChanging -= 1;
        }
        const made = store.resource;
        named.set(made.info.id, new LiveList(store, context));
        if (idempotencyKey !== undefined) {
          keys.set(idempotencyKey, made);
          keyOfList.set(made.info.id, idempotencyKey);
        }
        return made;
      },
      async delete(list) {
        // Gone at once for the requests that come while its storage is deleted; back if that fails.
        named.delete(list.id);
        listsChanging += 1;
        try {
          await list.delete(() => stores.remove(list.id, maxLists));
        } catch (error) {
          named.set(list.id, list);
          throw error;
        } finally {
          listsChanging -= 1;
        }
        const key = keyOfList.get(list.id);
        if (key === undefined) return;
        keyOfList.delete(list.id);
        keepDeletedKey(key);
      },
      *inMemory() {
        yield defaultList;
        yield* named.values();
      },
    };
  };
}
