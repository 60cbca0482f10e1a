import { eventIdOf, type ChangeEvent } from '../live/events.ts';
import type { Todo, TodoFields } from './todo.ts';

/** An item with the version of the list at which it last changed (its ETag). */
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
}

export interface MemoryTodoStoreOptions {
  /** Where a listener's exception goes; it never undoes the change or stops other listeners. */
  reportError?: (error: unknown) => void;
}

/**
 * The list in memory: a Map keeps insertion order, and replacing a value keeps its place.
 * A version names this run and a sequence number, so a version from another run (before a
 * restart) never passes for one of this run.
 */
export class MemoryTodoStore implements TodoStore {
  readonly #runId = crypto.randomUUID().slice(0, 8);
  #sequence = 0;
  readonly #items = new Map<string, StoredTodo>();
  readonly #listeners = new Set<ChangeListener>();
  readonly #reportError: (error: unknown) => void;

  constructor(options: MemoryTodoStoreOptions = {}) {
    this.#reportError = options.reportError ?? ((error) => console.error(error));
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
    this.#items.delete(id);
    this.#announce({ type: 'deleted', id: this.#nextVersion(), todo: stored.todo });
    return stored;
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #commit(type: 'created' | 'updated', todo: Todo): StoredTodo {
    const stored: StoredTodo = { todo: Object.freeze(todo), version: this.#nextVersion() };
    this.#items.set(todo.id, stored);
    this.#announce({ type, id: stored.version, todo: stored.todo });
    return stored;
  }

  #nextVersion(): string {
    this.#sequence += 1;
    return this.version;
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
