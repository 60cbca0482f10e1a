import type { StoreOptions } from '../storage/kept-lists.ts';
import type { StoredList } from '../store/changes.ts';
import type { ListContext, LiveList } from './live-list.ts';

/**
 * The lists a handler serves. On Node, every list lives in the one process; on workerd, the
 * worker only makes lists, and each Durable Object holds one.
 */
export interface ListDirectory {
  /** The list of `/api/todos` and `/api/sse`; undefined where this handler does not hold it. */
  readonly defaultList: LiveList | undefined;
  /** The named lists by id; none for an id never made, deleted, or not an id at all. */
  readonly named: { get(id: string): LiveList | undefined };
  /**
   * Makes a named list, empty, under `title`; an `HttpProblem` when no more can be made. With
   * `idempotencyKey`, a key that made a list already gives that create's answer again, or a
   * problem (`list-keys.ts`).
   */
  create(title: string, idempotencyKey?: string): Promise<StoredList>;
  /** Deletes a named list: it is gone from storage, and its streams end. */
  delete(list: LiveList): Promise<void>;
  /** The lists in memory now, for shutdown and for what a host reports of its streams. */
  inMemory(): Iterable<LiveList>;
}

/** Makes the directory of an app, once it knows its settings and host. */
export type OpenListDirectory = (context: ListContext) => ListDirectory;

/** The options of every store an app's lists are kept in. */
export function storeOptionsOf({ config, host }: ListContext): StoreOptions {
  return {
    keepChanges: config.sse.replayEvents,
    reportError: (error) => host.reportError(error),
  };
}
