import type { IdentifiedEvent } from '../model/events.ts';
import type { Todo } from '../model/resources.ts';
import { withEdits, type Edit, type ShownTodo } from './pending-edit.ts';

export type Filter = 'all' | 'active' | 'completed';

export const FILTER_HASHES: Readonly<Record<Filter, string>> = {
  all: '#/',
  active: '#/active',
  completed: '#/completed',
};

/** The filter a URL hash names; anything else shows all. */
export function filterOfHash(hash: string): Filter {
  if (hash === FILTER_HASHES.active) return 'active';
  if (hash === FILTER_HASHES.completed) return 'completed';
  return 'all';
}

export interface ListState {
  readonly filter: Filter;
  /** The items the filter lets through, in the list's order. */
  readonly visible: readonly ShownTodo[];
  readonly total: number;
  readonly active: number;
  readonly completed: number;
}

/**
 * The list as the event stream last told it, and the filter. A Map keeps creation order, and
 * setting a key that exists keeps its place, as the server's list does.
 */
export class TodoModel {
  readonly #items = new Map<string, Todo>();
  /** The versions of the items changed since the last snapshot, which gives none. */
  readonly #versions = new Map<string, string>();
  #filter: Filter = 'all';

  apply(event: IdentifiedEvent): void {
    switch (event.type) {
      case 'snapshot':
        this.#items.clear();
        this.#versions.clear();
        for (const todo of event.todos) this.#items.set(todo.id, todo);
        break;
      case 'created':
      case 'updated':
        this.#items.set(event.todo.id, event.todo);
        this.#versions.set(event.todo.id, event.id);
        break;
      case 'deleted':
        this.#items.delete(event.todo.id);
        this.#versions.delete(event.todo.id);
        break;
      case 'list-renamed':
        break;
    }
  }

  setFilter(filter: Filter): void {
    this.#filter = filter;
  }

  has(id: string): boolean {
    return this.#items.has(id);
  }

  /** The item's version, when an event since the last snapshot gave it. */
  versionOf(id: string): string | undefined {
    return this.#versions.get(id);
  }

  all(): Todo[] {
    return [...this.#items.values()];
  }

  /** The list with `edits` applied on top, as the page shows it. */
  shown(edits: readonly Edit[]): ShownTodo[] {
    return withEdits(this.all(), edits);
  }

  /** The list with `edits` applied on top, filtered, and counted. */
  state(edits: readonly Edit[] = []): ListState {
    const all = this.shown(edits);
    const completed = all.filter((todo) => todo.completed).length;
    const filter = this.#filter;
    const visible =
      filter === 'all' ? all : all.filter((todo) => todo.completed === (filter === 'completed'));
    return { filter, visible, total: all.length, active: all.length - completed, completed };
  }
}
