import type { IdentifiedEvent } from '../model/events.ts';
import type { Todo } from '../model/resources.ts';
import { compareVersions } from './event-order.ts';

/**
 * The version an edit was made on: the item's, if known, and the list's, which no item shown was
 * later than.
 */
interface EditBase {
  readonly item?: string;
  readonly list?: string;
}

interface EditOf<K extends string> {
  readonly kind: K;
  /** The item's id; for an item created here and not yet sent, an id the page made. */
  readonly id: string;
  /** The item's title as the user saw it when making the edit: what a notice names. */
  readonly label: string;
  /** The version the service took it at (empty for a delete): shown until the list catches up. */
  readonly landed?: string;
}

/** An edit the user made, as the page keeps it until the service has it. */
export type Edit =
  | (EditOf<'create'> & { readonly title: string; readonly key: string })
  | (EditOf<'update'> & {
      readonly title: string;
      readonly completed: boolean;
      readonly base: EditBase;
    })
  | (EditOf<'delete'> & { readonly base: EditBase });

/** An item as the page shows it: `pending` while an edit of it waits to be sent. */
export type ShownTodo = Todo & { readonly pending?: boolean };

/** The list as the service last told it, and the edits that wait on top. */
export class TodoModel {
  /** A Map keeps the order of the server's list, an update keeping an item's place. */
  readonly #items = new Map<string, Todo>();
  /** The versions of the items changed since the last snapshot, which gives none. */
  readonly #versions = new Map<string, string>();
  #version: string | undefined;

  /** `waiting` gives the edits not sent, and those landed that the list may not show yet. */
  constructor(private readonly waiting: () => readonly Edit[]) {}

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

  all(): Todo[] {
    return [...this.#items.values()];
  }

  /** The items as shown: the list's, with the edits it does not show yet on top. */
  shown(): ShownTodo[] {
    const items = new Map<string, ShownTodo>(this.#items);
    for (const edit of this.waiting()) {
      const pending = edit.landed === undefined;
      const todo = items.get(edit.id);
      if (!pending && this.isShown(edit)) continue;
      if (edit.kind === 'create') {
        items.set(edit.id, { id: edit.id, title: edit.title, completed: false, pending });
      } else if (edit.kind === 'delete') {
        items.delete(edit.id);
      } else if (todo !== undefined) {
        items.set(edit.id, { ...todo, title: edit.title, completed: edit.completed, pending });
      }
    }
    return [...items.values()];
  }

  /** Whether the list shows what `edit` did: a delete once the item is gone, else once as late. */
  isShown(edit: Edit): boolean {
    if (this.#version === undefined) return false;
    if (edit.kind === 'delete') return !this.#items.has(edit.id);
    // A list of another run will never catch up: it is the list now.
    return (compareVersions(this.#version, edit.landed ?? '') ?? 0) >= 0;
  }

  create(title: string): Edit {
    return {
      kind: 'create',
      id: `pending-${randomUuid()}`,
      title,
      key: randomUuid(),
      label: title,
    };
  }

  /** Undefined when the item is not shown, or already as asked. */
  update(id: string, fields: { title?: string; completed?: boolean }): Edit | undefined {
    const todo = this.#find(id);
    if (todo === undefined) return undefined;
    const { title = todo.title, completed = todo.completed } = fields;
    if (title === todo.title && completed === todo.completed) return undefined;
    return { kind: 'update', id, title, completed, label: todo.title, base: this.#baseOf(id) };
  }

  /** Undefined when the item is not shown. */
  remove(id: string): Edit | undefined {
    const todo = this.#find(id);
    return todo && { kind: 'delete', id, label: todo.title, base: this.#baseOf(id) };
  }

  #find(id: string): ShownTodo | undefined {
    return this.shown().find((todo) => todo.id === id);
  }

  #baseOf(id: string): EditBase {
    return { item: this.#versions.get(id), list: this.#version };
  }
}

/** A random UUID, also on plain `http:`, where `crypto.randomUUID` is missing. */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}
