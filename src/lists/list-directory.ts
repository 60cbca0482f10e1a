import type { AppConfig } from '../config.ts';
import type { Host } from '../host.ts';
import type { StreamTally } from '../live/stream-tally.ts';
import type { StoredList } from '../todos/store.ts';
import type { TodoList } from './todo-list.ts';

/**
 * The lists a handler serves. On Node, every list lives in the one process; on workerd, the
 * worker only creates lists, and each Durable Object holds one.
 */
export interface ListDirectory {
  /** The list of `/api/todos` and `/api/sse`; undefined where this handler does not hold it. */
  readonly defaultList: TodoList | undefined;
  /** The named list with this id, or undefined: never made, deleted, or not an id at all. */
  find(id: string): TodoList | undefined;
  /**
   * Makes a named list, empty, under `title`; an `HttpProblem` when no more can be made. With
   * `idempotencyKey`, a key that made a list already gives that create's answer again, or a
   * problem (`keyed-lists.ts`).
   */
  create(title: string, idempotencyKey?: string): Promise<StoredList>;
  /** Deletes a named list: it is gone from storage, and its streams end. */
  delete(list: TodoList): Promise<void>;
  /** The lists in memory now, for shutdown and for what a host reports of its streams. */
  held(): Iterable<TodoList>;
}

/**
 * What a directory's lists need from the app: its settings, the host's event channels, and
 * the tally of every list's open streams.
 */
export interface ListContext {
  readonly config: AppConfig;
  readonly host: Host;
  readonly tally: StreamTally;
}

/** Makes the directory of an app, once it knows its settings and host. */
export type OpenListDirectory = (context: ListContext) => ListDirectory;
