import type { Todo } from '../model/resources.ts';

/**
 * The version an edit was made on: the item's own when known (from the event that last changed
 * it, or the answer to an earlier edit), and the list's, which no item shown was later than.
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

export interface CreateEdit extends EditOf<'create'> {
  readonly title: string;
  /** Made with the edit and kept with it, so that every try sends the same Idempotency-Key. */
  readonly key: string;
}

export interface UpdateEdit extends EditOf<'update'> {
  readonly title: string;
  readonly completed: boolean;
  readonly base: EditBase;
}

export interface DeleteEdit extends EditOf<'delete'> {
  readonly base: EditBase;
}

/** An edit the user made, as the page keeps it until the service has it. */
export type Edit = CreateEdit | UpdateEdit | DeleteEdit;

/** An item as the page shows it: `pending` while an edit of it waits to be sent. */
export interface ShownTodo extends Todo {
  readonly pending?: boolean;
}

/** The items as the service last told them, with `edits` applied in order on top. */
export function withEdits(todos: Iterable<Todo>, edits: readonly Edit[]): ShownTodo[] {
  const items = new Map<string, ShownTodo>([...todos].map((todo) => [todo.id, todo]));
  for (const edit of edits) {
    const pending = edit.landed === undefined;
    const todo = items.get(edit.id);
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

/** A random UUID, also on plain `http:`, where `crypto.randomUUID` is missing. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}
