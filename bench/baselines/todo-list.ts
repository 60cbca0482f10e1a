import { randomUUID } from 'node:crypto';

export interface Todo {
  readonly id: string;
  readonly title: string;
  readonly completed: boolean;
}

export interface StoredTodo {
  readonly todo: Todo;
  /** The quoted version at which the item last changed. */
  readonly etag: string;
}

export type TodoChange = 'created' | 'updated' | 'deleted';

/**
 * The baselines' list: a Map in creation order, with a version per change, as the service
 * keeps it. Each baseline serialises what it reads from here on every request.
 */
export class TodoList {
  readonly #runId = randomUUID().slice(0, 8);
  readonly #items = new Map<string, StoredTodo>();
  #sequence = 0;

  constructor(
    private readonly onChange: (change: TodoChange, todo: Todo, version: string) => void = () => {},
  ) {}

  get size(): number {
    return this.#items.size;
  }

  get version(): string {
    return `${this.#runId}.${this.#sequence}`;
  }

  get etag(): string {
    return `"${this.version}"`;
  }

  list(): Todo[] {
    return Array.from(this.#items.values(), (stored) => stored.todo);
  }

  get(id: string): StoredTodo | undefined {
    return this.#items.get(id);
  }

  create(title: string, completed: boolean): StoredTodo {
    return this.#put('created', { id: randomUUID(), title, completed });
  }

  replace(id: string, title: string, completed: boolean): StoredTodo {
    return this.#put('updated', { id, title, completed });
  }

  delete(id: string): StoredTodo | undefined {
    const stored = this.#items.get(id);
    if (stored === undefined) return undefined;
    this.#items.delete(id);
    this.#sequence += 1;
    this.onChange('deleted', stored.todo, this.version);
    return stored;
  }

  #put(change: TodoChange, todo: Todo): StoredTodo {
    this.#sequence += 1;
    const stored = { todo, etag: this.etag };
    this.#items.set(todo.id, stored);
    this.onChange(change, todo, this.version);
    return stored;
  }
}
