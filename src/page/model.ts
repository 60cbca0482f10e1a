import type { IdentifiedEvent } from '../model/events.ts';
import type { Todo } from '../model/resources.ts';
import { compareVersions } from './event-order.ts';
import { randomUuid, withEdits } from './pending-edit.ts';
import type { CreateEdit, DeleteEdit, Edit, ShownTodo, UpdateEdit } from './pending-edit.ts';

type Filter = 'all' | 'active' | 'completed';

export const FILTER_HASHES: Readonly<Record<Filter, string>> = {
  all: '#/',
  active: '#/active',
  completed: '#/completed',
};

export interface ListState {
  readonly filter: Filter;
  /** The items the filter lets through, in the list's order. */
  readonly visible: readonly ShownTodo[];
  readonly total: number;
  readonly active: number;
  readonly completed: number;
}

/** The list as the service last told it, the edits that wait on top, and the filter. */
export class TodoModel {
  /** A Map keeps the order of the server's list, an update keeping an item's place. */
  readonly #items = new Map<string, Todo>();
  /** The versions of the items changed since the last snapshot, which gives none. */
  readonly #versions = new Map<string, string>();
  #version: string | undefined;
  #filter: Filter = 'all';

  /** `waiting` gives the edits not sent, and those landed that the list may not show yet. */
  constructor(private readonly waiting: () => readonly Edit[]) {}

  /** The list's version: the id of the last event applied. */
  get version(): string | undefined {
    return this.#version;
  }

  apply(event: IdentifiedEvent): void {
    this.#version = event.id;
    if (event.type === 'snapshot') {
      this.#items.clear();
      this.#versions.clear();
      for (const todo of event.todos) this.#items.set(todo.id, todo);
    } else if (event.type === 'deleted') {
      this.#items.delete(event.todo.id);
      this.#versions.delete(event.todo.id);
    } else if (event.type !== 'list-renamed') {
      this.#items.set(event.todo.id, event.todo);
      this.#versions.set(event.todo.id, event.id);
    }
  }

  /** Shows what the URL `hash` names; any other hash shows all. */
  filterBy(hash: string): void {
    const filters = Object.keys(FILTER_HASHES) as Filter[];
    this.#filter = filters.find((filter) => FILTER_HASHES[filter] === hash) ?? 'all';
  }

  all(): Todo[] {
    return [...this.#items.values()];
  }

  /** The items as shown, unfiltered: what toggle all and clear completed act on. */
  shown(): ShownTodo[] {
    const edits = this.waiting().filter((edit) => edit.landed === undefined || !this.isShown(edit));
    return withEdits(this.#items.values(), edits);
  }

  state(): ListState {
    const all = this.shown();
    const completed = all.filter((todo) => todo.completed).length;
    const filter = this.#filter;
    const visible =
      filter === 'all' ? all : all.filter((todo) => todo.completed === (filter === 'completed'));
    return { filter, visible, total: all.length, active: all.length - completed, completed };
  }

  /** Whether the list shows what `edit` did: a delete once the item is gone, else once as late. */
  isShown(edit: Edit): boolean {
    if (this.#version === undefined) return false;
    if (edit.kind === 'delete') return !this.#items.has(edit.id);
    // A list of another run will never catch up: it is the list now.
    return (compareVersions(this.#version, edit.landed ?? '') ?? 0) >= 0;
  }

  create(title: string): CreateEdit {
    const id = `pending-${randomUuid()}`;
    return { kind: 'create', id, title, key: randomUuid(), label: title };
  }

  /** Undefined when the item is not shown, or already as asked. */
  update(id: string, fields: { title?: string; completed?: boolean }): UpdateEdit | undefined {
    const todo = this.#find(id);
    if (todo === undefined) return undefined;
    const { title = todo.title, completed = todo.completed } = fields;
    if (title === todo.title && completed === todo.completed) return undefined;
    return { kind: 'update', id, title, completed, label: todo.title, base: this.#baseOf(id) };
  }

  /** Undefined when the item is not shown. */
  remove(id: string): DeleteEdit | undefined {
    const todo = this.#find(id);
    return todo && { kind: 'delete', id, label: todo.title, base: this.#baseOf(id) };
  }

  #find(id: string): ShownTodo | undefined {
    return this.shown().find((todo) => todo.id === id);
  }

  #baseOf(id: string): UpdateEdit['base'] {
    return { item: this.#versions.get(id), list: this.#version };
  }
}
