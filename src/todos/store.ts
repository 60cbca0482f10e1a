import type { ChangeEvent } from '../live/events.ts';
import type { ListInfo } from '../lists/list-info.ts';
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
 * One list: its title and its items in creation order. Every successful change is announced to
 * subscribers as the event the stream sends, its id the version of the list right after the
 * change, and the latest changes are kept for clients that resume.
 */
export interface TodoStore {
  readonly size: number;
  /** The version of the whole list: that of the last change, or the run's start. */
  readonly version: string;
  /** The list's id (`''` for the default list) and title, as `GET /api/lists/{id}` gives them. */
  readonly listInfo: ListInfo;
  /** The version at which the title was last set: the list resource's ETag. */
  readonly listVersion: string;
  list(): Todo[];
  get(id: string): StoredTodo | undefined;
  create(fields: TodoFields): StoredTodo;
  replace(id: string, fields: TodoFields): StoredTodo | undefined;
  delete(id: string): StoredTodo | undefined;
  rename(title: string): StoredList;
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
