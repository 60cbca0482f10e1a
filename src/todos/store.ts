import { DEFAULT_APP_CONFIG } from '../config.ts';
import { eventIdOf, type ChangeEvent } from '../live/events.ts';
import { ReplayBuffer } from '../live/replay-buffer.ts';
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

/** The list's own id and title, with the version at which the title was last set (its ETag). */
export interface StoredListInfo {
  readonly info: ListInfo;
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
  readonly info: StoredListInfo;
  list(): Todo[];
  get(id: string): StoredTodo | undefined;
  create(fields: TodoFields): StoredTodo;
  replace(id: string, fields: TodoFields): StoredTodo | undefined;
  delete(id: string): StoredTodo | undefined;
  rename(title: string): StoredListInfo;
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
  readonly info: StoredListInfo;
  readonly items: readonly StoredTodo[];
  readonly history: ChangeHistory;
}

export interface MemoryTodoStoreOptions {
  /** The list's id (`''` for the default list) and its first title. */
  readonly info?: ListInfo;
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges?: number;
  /** Where a listener's exception goes; it never undoes the change or stops other listeners. */
  readonly reportError?: (error: unknown) => void;
  /** The list to start from, as kept by durable storage; else an empty list of a new run. */
  readonly start?: KeptList;
  /**
   * Makes `change` durable before it is applied and announced; if it throws, the change is
   * neither, and the exception reaches the caller.
   */
  readonly persist?: (change: ChangeEvent, sequence: number) => void;
}

/** A new run's id: it tells a list that started again from the one before. */
export function newRunId(): string {
  return crypto.randomUUID().slice(0, 8);
}

/**
 * The list in memory: a Map keeps insertion order, and replacing a value keeps its place.
 * A version names this run and a sequence number, so a version from another run (before a
 * restart) never passes for one of this run. With `persist`, every change is written through
 * to durable storage first, and `start` brings the list back.
 */
export class MemoryTodoStore implements TodoStore {
  readonly #runId: string;
  #sequence: number;
  #info: StoredListInfo;
  readonly #items = new Map<string, StoredTodo>();
  readonly #listeners = new Set<ChangeListener>();
  readonly #replay: ReplayBuffer;
  readonly #reportError: (error: unknown) => void;
  readonly #persist: ((change: ChangeEvent, sequence: number) => void) | undefined;

  constructor(options: MemoryTodoStoreOptions = {}) {
    const { start } = options;
    this.#reportError = options.reportError ?? ((error) => console.error(error));
    this.#persist = options.persist;
    this.#runId = start?.run ?? newRunId();
    this.#sequence = start?.sequence ?? 0;
    this.#info = start?.info ?? {
      info: options.info ?? { id: '', title: '' },
      version: this.version,
    };
    for (const stored of start?.items ?? []) {
      this.#items.set(stored.todo.id, {
        todo: Object.freeze({ ...stored.todo }),
        version: stored.version,
      });
    }
    this.#replay = new ReplayBuffer(
      start?.history ?? { baseId: this.version, changes: [] },
      options.keepChanges ?? DEFAULT_APP_CONFIG.sse.replayEvents,
    );
  }

  get size(): number {
    return this.#items.size;
  }

  get version(): string {
    return eventIdOf({ run: this.#runId, sequence: this.#sequence });
  }

  get info(): StoredListInfo {
    return this.#info;
  }

  list(): Todo[] {
    return Array.from(this.#items.values(), (stored) => stored.todo);
  }

  get(id: string): StoredTodo | undefined {
    return this.#items.get(id);
  }

  create(fields: TodoFields): StoredTodo {
    const id = crypto.randomUUID();
    return this.#commit('created', { id, title: fields.title, completed: fields.completed });
  }

  replace(id: string, fields: TodoFields): StoredTodo | undefined {
    if (!this.#items.has(id)) return undefined;
    return this.#commit('updated', { id, title: fields.title, completed: fields.completed });
  }

  delete(id: string): StoredTodo | undefined {
    const stored = this.#items.get(id);
    if (stored === undefined) return undefined;
    const change = this.#next({ type: 'deleted', todo: stored.todo });
    this.#items.delete(id);
    this.#announce(change);
    return stored;
  }

  rename(title: string): StoredListInfo {
    const list = Object.freeze({ id: this.#info.info.id, title });
    const change = this.#next({ type: 'list-renamed', list });
    this.#info = { info: list, version: change.id };
    this.#announce(change);
    return this.#info;
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changesSince(eventId: string): readonly ChangeEvent[] | undefined {
    return this.#replay.since(eventId);
  }

  #commit(type: 'created' | 'updated', todo: Todo): StoredTodo {
    const change = this.#next({ type, todo: Object.freeze(todo) });
    const stored: StoredTodo = { todo: change.todo, version: change.id };
    this.#items.set(todo.id, stored);
    this.#announce(change);
    return stored;
  }

  /** The change that comes next, made durable first when there is storage; nothing yet applied. */
  #next<Change extends DistributiveOmit<ChangeEvent, 'id'>>(
    change: Change,
  ): Change & { id: string } {
    const sequence = this.#sequence + 1;
    const next = { ...change, id: eventIdOf({ run: this.#runId, sequence }) };
    this.#persist?.(next as ChangeEvent, sequence);
    this.#sequence = sequence;
    return next;
  }

  #announce(change: ChangeEvent): void {
    this.#replay.record(change);
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
