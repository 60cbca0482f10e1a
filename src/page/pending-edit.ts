import { placeOfEventId } from '../model/events.ts';
import type { Todo } from '../model/resources.ts';

/**
 * The version an edit was made on: the item's own when the page knew it (from the event that
 * last changed it, or the answer to an earlier edit), and always the list's, which no item
 * shown then was later than. A snapshot gives the list's version only.
 */
export interface EditBase {
  readonly item?: string;
  readonly list?: string;
}

interface EditOf<K extends string> {
  readonly kind: K;
  /** The item's id; for an item created here and not yet sent, an id the page made. */
  readonly id: string;
  /** The item's title as the user saw it when making the edit: what a notice names. */
  readonly label: string;
  /**
   * The version at which the service took the edit (empty for a delete): the edit is still
   * shown, unmarked, until the list shown has caught up, so the item does not flicker back.
   */
  readonly landed?: string;
}

export interface CreateEdit extends EditOf<'create'> {
  readonly title: string;
  /** Made with the edit and kept with it, so that every try sends the same key. */
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

const LOCAL_ID_PREFIX = 'pending-';

/** An id for an item made here, not one the service gave; used until its create lands. */
export function localId(): string {
  return `${LOCAL_ID_PREFIX}${randomUuid()}`;
}

/**
 * A random UUID, also where `crypto.randomUUID` is missing: it exists in secure contexts only,
 * and the page works online on plain `http:` too.
 */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The list as the service last told it, with `edits` applied in order on top. */
export function withEdits(todos: readonly Todo[], edits: readonly Edit[]): ShownTodo[] {
  const items = new Map<string, ShownTodo>(todos.map((todo) => [todo.id, todo]));
  for (const edit of edits) {
    const pending = edit.landed === undefined;
    if (edit.kind === 'create') {
      items.set(edit.id, { id: edit.id, title: edit.title, completed: false, pending });
    } else if (edit.kind === 'update') {
      const todo = items.get(edit.id);
      const { title, completed } = edit;
      if (todo !== undefined) items.set(edit.id, { ...todo, title, completed, pending });
    } else {
      items.delete(edit.id);
    }
  }
  return [...items.values()];
}

/**
 * Whether a list at `version`, which holds the items `has` says, shows what `edit` did once it
 * landed: a delete once the item is gone, a create or a change once the list is as late.
 */
export function isShownBy(edit: Edit, version: string, has: (id: string) => boolean): boolean {
  if (edit.kind === 'delete') return !has(edit.id);
  const shown = placeOfEventId(version);
  const landed = placeOfEventId(edit.landed ?? '');
  // A list of another run will never catch up: it is the list now.
  if (shown === undefined || landed === undefined || shown.run !== landed.run) return true;
  return shown.sequence >= landed.sequence;
}
