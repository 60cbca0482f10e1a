import { MemoryTodoStore } from '../todos/memory-store.ts';
import { type TodoStore } from '../todos/store.ts';
import type { ListContext } from './list-directory.ts';
import type { KeyedList } from './keyed-lists.ts';
import type { ListInfo } from './list-info.ts';

/** What every store of a directory is opened with. */
export interface StoreOptions {
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges: number;
  readonly reportError: (error: unknown) => void;
}

/** The options of every store an app's lists are kept in. */
export function storeOptionsOf({ config, host }: ListContext): StoreOptions {
  return {
    keepChanges: config.sse.replayEvents,
    reportError: (error) => host.reportError(error),
  };
}

/** Where a process's lists are kept: in memory only, or in durable storage as well. */
export interface ListStores {
  openDefault(options: StoreOptions): TodoStore;
  /** The named lists kept from an earlier run, in no particular order. */
  openKept(options: StoreOptions): TodoStore[];
  /**
   * A new list's store, once the list is durable, and with `idempotencyKey` the key it was
   * made with too.
   */
  create(info: ListInfo, options: StoreOptions, idempotencyKey?: string): Promise<TodoStore>;
  /**
   * The keys lists were made with, kept from an earlier run: the live lists', then the deleted
   * lists' of the latest deletions, in the order they were deleted.
   */
  keptKeys(): KeyedList[];
  /**
   * Resolves once the list is gone from storage, its items and changes with it; its key, if it
   * was made with one, is kept with the keys of the latest `deletedKeysKept` deletions.
   */
  remove(listId: string, deletedKeysKept: number): Promise<void>;
}

/** Lists in memory only: a restart starts with an empty default list and no other. */
export const memoryListStores: ListStores = {
  openDefault: (options) => new MemoryTodoStore(options),
  openKept: () => [],
  create: async (info, options) => new MemoryTodoStore({ ...options, info }),
  remove: async () => {},
  keptKeys: () => [],
};
