import { element, find } from './dom.ts';
import type { ShownTodo } from './model.ts';

/** What the filters' URL hashes let through; any other hash shows all. */
const FILTERS: Readonly<Record<string, (todo: ShownTodo) => boolean>> = {
  '#/active': (todo) => !todo.completed,
  '#/completed': (todo) => todo.completed,
};

interface ViewHandlers {
  toggle(id: string, completed: boolean): void;
  remove(id: string): void;
  /** An edit saved with Enter or by leaving the field; the title is trimmed, maybe empty. */
  edit(id: string, title: string): void;
  toggleAll(completed: boolean): void;
  clearCompleted(): void;
}

/** The items, updated in place so that an event does not disturb an edit, and their controls. */
export class ItemListView {
  readonly #list = find<HTMLUListElement>(document, '.todo-list');
  readonly #main = find<HTMLElement>(document, '.main');
  readonly #toggleAll = find<HTMLInputElement>(document, '.toggle-all');
  readonly #toggleAllLabel = find<HTMLLabelElement>(document, 'label[for="toggle-all"]');
  readonly #footer = find<HTMLElement>(document, '.footer');
  readonly #count = find<HTMLElement>(document, '.todo-count');
  readonly #filters = [...document.querySelectorAll<HTMLAnchorElement>('.filters a')];
  readonly #clearCompleted = find<HTMLButtonElement>(document, '.clear-completed');
  readonly #items = new Map<string, HTMLLIElement>();
  /** On a view-only page, items have no toggle, no delete button, and are not edited. */
  #editable = false;

  bind(handlers: ViewHandlers): void {
    this.#toggleAll.addEventListener('change', () => handlers.toggleAll(this.#toggleAll.checked));
    this.#clearCompleted.addEventListener('click', () => handlers.clearCompleted());
    this.#list.addEventListener('click', (event) => {
      // A tick box is ticked by the time its click comes, by mouse or keyboard.
      const target = event.target as HTMLInputElement;
      const id = target.closest('li')?.dataset.id;
      if (id === undefined) return;
      if (target.matches('.toggle')) handlers.toggle(id, target.checked);
      if (target.matches('.destroy')) handlers.remove(id);
    });
    this.#list.addEventListener('dblclick', (event) => {
      const label = event.target as HTMLElement;
      const item = label.closest('li:not(.editing)');
      if (!this.#editable || !label.matches('.view label') || item === null) return;
      const edit = element('input', { className: 'edit', value: label.textContent ?? '' });
      edit.setAttribute('aria-label', 'Edit the to-do');
      item.classList.add('editing');
      item.append(edit);
      edit.focus();
    });
    this.#list.addEventListener('keydown', (event) => {
      const target = event.target as HTMLElement;
      if (!target.matches('.edit') || event.isComposing) return;
      if (event.key === 'Enter') this.#stopEditing(target.closest('li')!, handlers);
      if (event.key === 'Escape') this.#stopEditing(target.closest('li')!);
    });
    // blur does not bubble; focusout does.
    this.#list.addEventListener('focusout', (event) => {
      const target = event.target as HTMLElement;
      // An edit field removed by a re-render may still report losing the focus.
      const item = target.closest('li');
      if (target.matches('.edit') && item !== null) this.#stopEditing(item, handlers);
    });
  }

  render(todos: readonly ShownTodo[], editable: boolean): void {
    const hash = Object.hasOwn(FILTERS, location.hash) ? location.hash : '#/';
    this.#renderItems(todos.filter(FILTERS[hash] ?? (() => true)), editable);
    const completed = todos.filter((todo) => todo.completed).length;
    const active = todos.length - completed;
    this.#main.hidden = todos.length === 0;
    this.#footer.hidden = todos.length === 0;
    this.#toggleAll.checked = todos.length > 0 && completed === todos.length;
    for (const part of [this.#toggleAll, this.#toggleAllLabel]) part.hidden = !editable;
    this.#toggleAll.disabled = !editable;
    const count = element('strong', { textContent: String(active) });
    this.#count.replaceChildren(count, ` ${active === 1 ? 'item' : 'items'} left`);
    for (const link of this.#filters) {
      const selected = link.getAttribute('href') === hash;
      link.classList.toggle('selected', selected);
      if (selected) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    this.#clearCompleted.hidden = !editable || completed === 0;
  }

  #renderItems(todos: readonly ShownTodo[], editable: boolean): void {
    this.#editable = editable;
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
    const view = element('div', { className: 'view' });
    view.append(
      element('input', { className: 'toggle', type: 'checkbox' }),
      element('label'),
      element('span', { className: 'pending-mark', textContent: 'not sent yet' }),
      element('button', { className: 'destroy', type: 'button' }),
    );
    item.append(view);
    this.#items.set(id, item);
    return item;
  }

  #updateItem(item: HTMLLIElement, todo: ShownTodo): void {
    item.classList.toggle('completed', todo.completed);
    item.classList.toggle('pending', todo.pending === true);
    const toggle = find<HTMLInputElement>(item, '.toggle');
    const destroy = find<HTMLButtonElement>(item, '.destroy');
    toggle.checked = todo.completed;
    toggle.setAttribute('aria-label', `Completed: ${todo.title}`);
    destroy.setAttribute('aria-label', `Delete: ${todo.title}`);
    for (const control of [toggle, destroy]) {
      control.hidden = control.disabled = !this.#editable;
    }
    const label = find(item, '.view label');
    if (label.textContent !== todo.title) label.textContent = todo.title;
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
