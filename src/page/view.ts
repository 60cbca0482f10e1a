import type { Todo } from '../todos/todo.ts';
import type { ConnectionState } from './live-feed.ts';
import { FILTER_HASHES, type ListState } from './model.ts';

const ENTER_KEY = 'Enter';
const ESCAPE_KEY = 'Escape';

export interface ViewHandlers {
  add(title: string): void;
  toggle(id: string, completed: boolean): void;
  remove(id: string): void;
  /** An edit saved with Enter or by leaving the field; the title is trimmed, maybe empty. */
  edit(id: string, title: string): void;
  toggleAll(completed: boolean): void;
  clearCompleted(): void;
  hashChange(hash: string): void;
}

export interface ConnectionInfo {
  readonly state: ConnectionState;
  readonly snapshots: number;
  /** Change events applied: with the ids, tests see that none was lost or applied twice. */
  readonly changes: number;
  readonly lastEventId: string | undefined;
}

function find<T extends Element>(root: ParentNode, selector: string): T {
  const element = root.querySelector<T>(selector);
  if (element === null) throw new Error(`The page has no ${selector}.`);
  return element;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  if (className !== undefined) created.className = className;
  return created;
}

/**
 * The only module that touches the DOM. Items are kept by id and updated in place, so an
 * event from another tab does not disturb an item being edited here.
 */
export class TodoView {
  readonly #newTodo = find<HTMLInputElement>(document, '.new-todo');
  readonly #main = find<HTMLElement>(document, '.main');
  readonly #toggleAll = find<HTMLInputElement>(document, '.toggle-all');
  readonly #list = find<HTMLUListElement>(document, '.todo-list');
  readonly #footer = find<HTMLElement>(document, '.footer');
  readonly #count = find<HTMLElement>(document, '.todo-count');
  readonly #filters = [...document.querySelectorAll<HTMLAnchorElement>('.filters a')];
  readonly #clearCompleted = find<HTMLButtonElement>(document, '.clear-completed');
  readonly #connection = find<HTMLElement>(document, '.connection-status');
  readonly #problem = find<HTMLElement>(document, '.problem');
  readonly #items = new Map<string, HTMLLIElement>();

  get hash(): string {
    return location.hash;
  }

  bind(handlers: ViewHandlers): void {
    this.#newTodo.addEventListener('keydown', (event) => {
      if (event.key !== ENTER_KEY || event.isComposing) return;
      const title = this.#newTodo.value.trim();
      if (title === '') return;
      this.#newTodo.value = '';
      handlers.add(title);
    });
    this.#toggleAll.addEventListener('change', () => handlers.toggleAll(this.#toggleAll.checked));
    this.#clearCompleted.addEventListener('click', () => handlers.clearCompleted());
    window.addEventListener('hashchange', () => handlers.hashChange(location.hash));

    this.#list.addEventListener('change', (event) => {
      const target = event.target as HTMLInputElement;
      const id = this.#idOf(target);
      if (target.matches('.toggle') && id !== undefined) handlers.toggle(id, target.checked);
    });
    this.#list.addEventListener('click', (event) => {
      const target = event.target as HTMLElement;
      const id = this.#idOf(target);
      if (target.matches('.destroy') && id !== undefined) handlers.remove(id);
    });
    this.#list.addEventListener('dblclick', (event) => {
      const target = event.target as HTMLElement;
      if (target.matches('.view label')) this.#startEditing(target.closest('li')!);
    });
    this.#list.addEventListener('keydown', (event) => {
      const target = event.target as HTMLElement;
      if (!target.matches('.edit') || event.isComposing) return;
      if (event.key === ENTER_KEY) this.#stopEditing(target.closest('li')!, handlers);
      if (event.key === ESCAPE_KEY) this.#stopEditing(target.closest('li')!);
    });
    // blur does not bubble; focusout does.
    this.#list.addEventListener('focusout', (event) => {
      const target = event.target as HTMLElement;
      // An edit field removed by a re-render may still report losing the focus.
      const item = target.closest('li');
      if (target.matches('.edit') && item !== null) this.#stopEditing(item, handlers);
    });
  }

  render(state: ListState): void {
    this.#renderItems(state.visible);
    this.#main.hidden = state.total === 0;
    this.#footer.hidden = state.total === 0;
    this.#toggleAll.checked = state.total > 0 && state.completed === state.total;
    const strong = element('strong');
    strong.textContent = String(state.active);
    this.#count.replaceChildren(strong, ` ${state.active === 1 ? 'item' : 'items'} left`);
    for (const link of this.#filters) {
      const selected = link.getAttribute('href') === FILTER_HASHES[state.filter];
      link.classList.toggle('selected', selected);
      if (selected) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    this.#clearCompleted.hidden = state.completed === 0;
  }

  /** Says when the list may be out of date; its data attributes let tests see the stream. */
  showConnection(info: ConnectionInfo): void {
    this.#connection.textContent = info.state === 'reconnecting' ? 'Reconnecting…' : '';
    this.#connection.dataset.state = info.state;
    this.#connection.dataset.snapshots = String(info.snapshots);
    this.#connection.dataset.changes = String(info.changes);
    this.#connection.dataset.lastEventId = info.lastEventId ?? '';
  }

  showProblem(detail: string | undefined): void {
    this.#problem.textContent = detail ?? '';
  }

  /** Gives a title whose creation failed back to the user, unless they typed on meanwhile. */
  restoreNewTodo(title: string): void {
    if (this.#newTodo.value === '') this.#newTodo.value = title;
  }

  #idOf(target: Element): string | undefined {
    return target.closest('li')?.dataset.id;
  }

  #renderItems(todos: readonly Todo[]): void {
    const shown = new Set(todos.map((todo) => todo.id));
    for (const [id, item] of this.#items) {
      if (shown.has(id)) continue;
      this.#stopEditing(item);
      item.remove();
      this.#items.delete(id);
    }
    let previous: HTMLLIElement | undefined;
    for (const todo of todos) {
      const item = this.#items.get(todo.id) ?? this.#createItem(todo.id);
      this.#updateItem(item, todo);
      const expected = previous ? previous.nextElementSibling : this.#list.firstElementChild;
      if (item !== expected) {
        if (previous) previous.after(item);
        else this.#list.prepend(item);
      }
      previous = item;
    }
  }

  #createItem(id: string): HTMLLIElement {
    const item = element('li');
    item.dataset.id = id;
    const view = element('div', 'view');
    const toggle = element('input', 'toggle');
    toggle.type = 'checkbox';
    const destroy = element('button', 'destroy');
    destroy.type = 'button';
    view.append(toggle, element('label'), destroy);
    item.append(view);
    this.#items.set(id, item);
    return item;
  }

  #updateItem(item: HTMLLIElement, todo: Todo): void {
    item.classList.toggle('completed', todo.completed);
    const toggle = find<HTMLInputElement>(item, '.toggle');
    toggle.checked = todo.completed;
    toggle.setAttribute('aria-label', `Completed: ${todo.title}`);
    find(item, '.destroy').setAttribute('aria-label', `Delete: ${todo.title}`);
    const label = find(item, '.view label');
    if (label.textContent !== todo.title) label.textContent = todo.title;
  }

  #startEditing(item: HTMLLIElement): void {
    if (item.classList.contains('editing')) return;
    const edit = element('input', 'edit');
    edit.value = find(item, '.view label').textContent ?? '';
    edit.setAttribute('aria-label', 'Edit the to-do');
    item.classList.add('editing');
    item.append(edit);
    edit.focus();
  }

  /** Leaves editing; with handlers, saves. Removing the field may blur it: that does nothing. */
  #stopEditing(item: HTMLLIElement, save?: ViewHandlers): void {
    if (!item.classList.contains('editing')) return;
    const edit = find<HTMLInputElement>(item, '.edit');
    item.classList.remove('editing');
    edit.remove();
    if (save && item.dataset.id !== undefined) save.edit(item.dataset.id, edit.value.trim());
  }
}
