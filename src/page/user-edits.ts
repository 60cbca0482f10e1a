import type { TodoModel } from './model.ts';
import {
  isShownBy,
  localId,
  randomUuid,
  type CreateEdit,
  type DeleteEdit,
  type Edit,
  type EditBase,
  type ShownTodo,
  type UpdateEdit,
} from './pending-edit.ts';

/**
 * Turns what the user does into edits of the list as shown (the service's, with the edits
 * that wait on top), each with what it needs to be sent later: a create its key, a change or a
 * delete the version it was made on.
 */
export class UserEdits {
  /** `version` is that of the list the model holds; `waiting`, the edits not yet sent. */
  constructor(
    private readonly model: TodoModel,
    private readonly version: () => string | undefined,
    private readonly waiting: () => readonly Edit[],
  ) {}

  /** The items as shown, unfiltered: what toggle all and clear completed act on. */
  shown(): readonly ShownTodo[] {
    return this.model.shown(this.overlay());
  }

  /** The edits shown on top of the list: those not sent, and those landed it does not show. */
  overlay(): readonly Edit[] {
    return this.waiting().filter((edit) => edit.landed === undefined || !this.isShown(edit));
  }

  /** Whether the list the model holds shows what `edit` did, once landed. */
  isShown(edit: Edit): boolean {
    const version = this.version();
    return version !== undefined && isShownBy(edit, version, (id) => this.model.has(id));
  }

  create(title: string): CreateEdit {
    return { kind: 'create', id: localId(), title, key: randomUuid(), label: title };
  }

  /** Undefined when the item is not shown, or already as asked. */
  update(id: string, fields: { title?: string; completed?: boolean }): UpdateEdit | undefined {
    const todo = this.#find(id);
    if (todo === undefined) return undefined;
    const { title = todo.title, completed = todo.completed } = fields;
    if (title === todo.title && completed === todo.completed) return undefined;
    return { kind: 'update', id, title, completed, label: todo.title, base: this.#base(id) };
  }

  /** Undefined when the item is not shown. */
  remove(id: string): DeleteEdit | undefined {
    const todo = this.#find(id);
    return todo && { kind: 'delete', id, label: todo.title, base: this.#base(id) };
  }

  #find(id: string): ShownTodo | undefined {
    return this.shown().find((todo) => todo.id === id);
  }

  #base(id: string): EditBase {
    const item = this.model.versionOf(id);
    const list = this.version();
    return { ...(item !== undefined && { item }), ...(list !== undefined && { list }) };
  }
}
