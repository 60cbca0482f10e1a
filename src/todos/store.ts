import type { TodoChange, TodoChangeListener } from './changes.ts';
import type { Todo, TodoFields } from './todo.ts';

/** An item with the version of the list at which it last changed (its ETag). */
export interface StoredTodo {
  readonly todo: Todo;
  readonly version: string;
}

/** The list, in creation order. Every successful change is announced to subscribers. */
export interface TodoStore {
  readonly size: number;
  /** The version of the whole list: that of the last change, or the run's start. */
  readonly version: string;
  readonly subscriberCount: number;
  list(): Todo[];
  get(id: string): StoredTodo | undefined;
  create(fields: TodoFields): StoredTodo;
  replace(id: string, fields: TodoFields): StoredTodo | undefined;
  delete(id: string): StoredTodo | undefined;
  /**
   * The changes made after the list was at `version`, oldest first, or undefined when they
   * cannot all be told: the version is from another run, not one this store made, or older
   * than the history it keeps.
   */
  changesSince(version: string): readonly TodoChange[] | undefined;
  /** Returns the function that ends the subscription. */
  subscribe(listener: TodoChangeListener): () => void;
}

export interface MemoryTodoStoreOptions {
  runId?: string;
  newId?: () => string;
  /** How many of the latest changes `changesSince` can tell; 0 keeps none. */
  historyLimit?: number;
  /** Where a listener's exception goes; it never undoes the change or stops other listeners. */
  reportError?: (error: unknown) => void;
}

/** The list in memory: a Map keeps insertion order, and replacing a value keeps its place. */
export class MemoryTodoStore implements TodoStore {
  readonly runId: string;
  #sequence = 0;
  readonly #items = new Map<string, StoredTodo>();
  readonly #listeners = new Set<TodoChangeListener>();
  readonly #history: TodoChange[] = [];
  readonly #historyLimit: number;
  readonly #newId: () => string;
  readonly #reportError: (error: unknown) => void;

  constructor(options: MemoryTodoStoreOptions = {}) {
    this.runId = options.runId ?? crypto.randomUUID().slice(0, 8);
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    this.#reportError = options.reportError ?? ((error) => console.error(error));
    this.#historyLimit = options.historyLimit ?? 0;
  }

  get size(): number {
    return this.#items.size;
  }

  get version(): string {
    return `${this.runId}.${this.#sequence}`;
  }

  get subscriberCount(): number {
    return this.#listeners.size;
  }

  list(): Todo[] {
    return Array.from(this.#items.values(), (stored) => stored.todo);
  }

  get(id: string): StoredTodo | undefined {
    return this.#items.get(id);
  }

  create(fields: TodoFields): StoredTodo {
    const id = this.#newId();
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
    this.#announce({ type: 'deleted', version: this.#nextVersion(), todo: stored.todo });
    return stored;
  }

  changesSince(version: string): readonly TodoChange[] | undefined {
    const sequence = this.#sequenceOf(version);
    if (sequence === undefined) return undefined;
    const missed = this.#sequence - sequence;
    if (missed < 0 || missed > this.#history.length) return undefined;
    return this.#history.slice(this.#history.length - missed);
  }

  subscribe(listener: TodoChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #commit(type: 'created' | 'updated', todo: Todo): StoredTodo {
    const stored: StoredTodo = { todo: Object.freeze(todo), version: this.#nextVersion() };
    this.#items.set(todo.id, stored);
    this.#announce({ type, version: stored.version, todo: stored.todo });
    return stored;
  }

  #nextVersion(): string {
    this.#sequence += 1;
    return this.version;
  }

  /** The sequence number of a version this run made, written as this store writes it. */
  #sequenceOf(version: string): number | undefined {
    const prefix = `${this.runId}.`;
    if (!version.startsWith(prefix)) return undefined;
    const digits = version.slice(prefix.length);
    return /^(?:0|[1-9][0-9]{0,14})$/.test(digits) ? Number(digits) : undefined;
  }

  #announce(change: TodoChange): void {
    if (this.#historyLimit > 0) {
      this.#history.push(change);
      if (this.#history.length > this.#historyLimit) this.#history.shift();
    }
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}
