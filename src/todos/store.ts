import { eventIdOf, type ChangeEvent } from '../live/events.ts';
import type { Todo, TodoFields } from './todo.ts';

/**
 * An item with the version of the list at which it last changed (its ETag). Every version is
 * a new object, never one changed in place, so what is derived from one can be kept with it.
 */
export interface StoredTodo {
  readonly todo: Todo;
  readonly version: string;
}

export type ChangeListener = (change: ChangeEvent) => void;

/**
 * The list, in creation order. Every successful change is announced to subscribers as the
 * event the stream sends, its id the version of the list right after the change.
 */
export interface TodoStore {
  readonly size: number;
  /** The version of the whole list: that of the last change, or the run's start. */
  readonly version: string;
  list(): Todo[];
  get(id: string): StoredTodo | undefined;
  create(fields: TodoFields): StoredTodo;
  replace(id: string, fields: TodoFields): StoredTodo | undefined;
  delete(id: string): StoredTodo | undefined;
  /** Returns the function that ends the subscription. */
  subscribe(listener: ChangeListener): () => void;
  /** The changes kept from before this store started, for clients that resume across it. */
  history(): ChangeHistory;
}

/** Changes in order, and the version of the list just before the first of them. */
export interface ChangeHistory {
  readonly baseId: string;
  readonly changes: readonly ChangeEvent[];
}

/** Where a list that was kept starts again: its run, its last sequence, items in order. */
export interface StoredList {
  readonly run: string;
  readonly sequence: number;
  readonly items: readonly StoredTodo[];
  readonly history: ChangeHistory;
}

export interface MemoryTodoStoreOptions {
  /** Where a listener's exception goes; it never undoes the change or stops other listeners. */
  reportError?: (error: unknown) => void;
  /** The list to start from, as kept by durable storage; else an empty list of a new run. */
  start?: StoredList;
  /**
   * Makes `change` durable before it is applied and announced; if it throws, the change is
   * neither, and the exception reaches the caller.
   */
  persist?: (change: ChangeEvent, sequence: number) => void;
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
  readonly #items = new Map<string, StoredTodo>();
  readonly #listeners = new Set<ChangeListener>();
  readonly #reportError: (error: unknown) => void;
  readonly #persist: ((change: ChangeEvent, sequence: number) => void) | undefined;
  readonly #history: ChangeHistory;

  constructor(options: MemoryTodoStoreOptions = {}) {
    this.#reportError = options.reportError ?? ((error) => console.error(error));
    this.#persist = options.persist;
    this.#runId = options.start?.run ?? crypto.randomUUID().slice(0, 8);
    this.#sequence = options.start?.sequence ?? 0;
    for (const stored of options.start?.items ?? []) {
      this.#items.set(stored.todo.id, {
        todo: Object.freeze({ ...stored.todo }),
        version: stored.version,
      });
    }
    this.#history = options.start?.history ?? { baseId: this.version, changes: [] };
  }

  get size(): number {
    return this.#items.size;
  }

  get version(): string {
    return eventIdOf({ run: this.#runId, sequence: this.#sequence });
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
    const change = this.#next('deleted', stored.todo);
    this.#items.delete(id);
    this.#announce(change);
    return stored;
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  history(): ChangeHistory {
    return this.#history;
  }

  #commit(type: 'created' | 'updated', todo: Todo): StoredTodo {
    const change = this.#next(type, Object.freeze(todo));
    const stored: StoredTodo = { todo: change.todo, version: change.id };
    this.#items.set(todo.id, stored);
    this.#announce(change);
    return stored;
  }

  /** The change that comes next, made durable first when there is storage; nothing yet applied. */
  #next(type: ChangeEvent['type'], todo: Todo): ChangeEvent {
    const sequence = this.#sequence + 1;
    const change: ChangeEvent = { type, id: eventIdOf({ run: this.#runId, sequence }), todo };
    this.#persist?.(change, sequence);
    this.#sequence = sequence;
    return change;
  }

  #announce(change: ChangeEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}
