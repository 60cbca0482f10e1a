import type { ChangeEvent } from '../live/events.ts';
import type { ListInfo } from '../lists/list-info.ts';
import type { KeyedCreate } from './keyed-creates.ts';
import type { Todo, TodoFields } from './todo.ts';

/**
 * An item with the version of the list at which it last changed (its ETag). Every version is
 * a new object, never one changed in place, so what is derived from one can be kept with it.
 */
export interface StoredTodo {
  readonly todo: Todo;
  readonly version: string;
}

/** A list's id and title, with the version at which the title was last set (its ETag). */
export interface StoredList {
  readonly list: ListInfo;
  readonly version: string;
}

export type ChangeListener = (change: ChangeEvent) => void;

/**
 * The list as every change made so far leaves it, whether or not those changes are durable
 * yet: what a change's conditions (the item is there, its `If-Match`, room for one more) are
 * checked against, so that changes waiting for one commit apply in order, each to what the one
 * before it left.
 */
export interface LatestList {
  readonly size: number;
  /** The version at which the title was last set. */
  readonly listVersion: string;
  get(id: string): StoredTodo | undefined;
}

/**
 * One list: its title and its items in creation order. A change is made at once, against the
 * latest list, and then made durable where there is storage; only then does its promise
 * resolve, do readers see it, and is it announced to subscribers as the event the stream sends,
 * its id the version of the list right after the change. The latest changes are kept for
 * clients that resume. A change that cannot be made durable rejects, and so does every change
 * made after it that was waiting with it; none of them is seen or announced.
 */
export interface TodoStore {
  readonly size: number;
  /** The version of the whole list: that of the last change, or the run's start. */
  readonly version: string;
  /** The list's id (`''` for the default list) and title, as `GET /api/lists/{id}` gives them. */
  readonly listInfo: ListInfo;
  /** The version at which the title was last set: the list resource's ETag. */
  readonly listVersion: string;
  /** The list with the changes not yet durable: what a change is checked against. */
  readonly latest: LatestList;
  list(): Todo[];
  get(id: string): StoredTodo | undefined;
  /** With `idempotencyKey`, the change keeps it, so that `createdWith` finds it. */
  create(fields: TodoFields, idempotencyKey?: string): Promise<StoredTodo>;
  /** The create made with `idempotencyKey`, while the list remembers it (`keyed-creates.ts`). */
  createdWith(idempotencyKey: string): KeyedCreate | undefined;
  /** Undefined when the latest list holds no item `id`. */
  replace(id: string, fields: TodoFields): Promise<StoredTodo | undefined>;
  /** The item as it was; undefined when the latest list holds no item `id`. */
  delete(id: string): Promise<StoredTodo | undefined>;
  rename(title: string): Promise<StoredList>;
  /**
   * Resolves once every change made so far is durable; rejects when one of them cannot be.
   * An answer judged against the latest list waits for it, so that no answer tells of a change
   * before the change's own answer could.
   */
  settled(): Promise<void>;
  /** Returns the function that ends the subscription. */
  subscribe(listener: ChangeListener): () => void;
  /**
   * The changes after the one whose id is `eventId`, oldest first, or undefined when that id is
   * not among the changes kept (too old, another run's, or not an id at all).
   */
  changesSince(eventId: string): readonly ChangeEvent[] | undefined;
}

/** Changes in order, and the version of the list just before the first of them. */
export interface ChangeHistory {
  readonly baseId: string;
  readonly changes: readonly ChangeEvent[];
}

/** Where a list that was kept starts again: its run, last sequence, title and items in order. */
export interface KeptList {
  readonly run: string;
  readonly sequence: number;
  readonly list: StoredList;
  readonly items: readonly StoredTodo[];
  readonly history: ChangeHistory;
}
