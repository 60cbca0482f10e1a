import { element, ENTER_KEY, find } from './dom.ts';
import { ItemListView, type ViewHandlers } from './item-list-view.ts';
import type { ConnectionState } from './event-stream.ts';
import { FILTER_HASHES, type ListState } from './model.ts';

export interface ConnectionInfo {
  readonly state: ConnectionState;
  readonly snapshots: number;
  /** Change events applied: with the ids, tests see that none was lost or applied twice. */
  readonly changes: number;
  readonly lastEventId: string | undefined;
}

/**
 * The page as the controller sees it; with `ItemListView` for the items and `ListView` for the
 * list's own controls, the only code that touches the DOM.
 */
export class TodoView {
  readonly #newTodo = find<HTMLInputElement>(document, '.new-todo');
  readonly #main = find<HTMLElement>(document, '.main');
  readonly #toggleAll = find<HTMLInputElement>(document, '.toggle-all');
  readonly #footer = find<HTMLElement>(document, '.footer');
  readonly #count = find<HTMLElement>(document, '.todo-count');
  readonly #filters = [...document.querySelectorAll<HTMLAnchorElement>('.filters a')];
  readonly #clearCompleted = find<HTMLButtonElement>(document, '.clear-completed');
  readonly #connection = find<HTMLElement>(document, '.connection-status');
  readonly #problem = find<HTMLElement>(document, '.problem');
  readonly #pending = find<HTMLElement>(document, '.pending-status');
  readonly #notice = find<HTMLElement>(document, '.edit-notice');
  readonly #items = new ItemListView();
  /** The list is gone: its items and the controls that change them stay hidden. */
  #disabled = false;

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
    this.#items.bind(handlers);
  }

  render(state: ListState): void {
    if (this.#disabled) return;
    this.#items.render(state.visible);
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

  /** The list is gone: hides its items, ending any edit unsaved, and the new-todo field. */
  disable(): void {
    this.#items.render([]);
    this.#disabled = true;
    this.#newTodo.disabled = true;
    for (const part of [this.#newTodo, this.#main, this.#footer]) part.hidden = true;
  }

  showProblem(detail: string | undefined): void {
    this.#problem.textContent = detail ?? '';
  }

  /** How many edits are kept on this device to be sent; a deleted item's shows nowhere else. */
  showPending(count: number): void {
    const edits = count === 1 ? '1 change' : `${count} changes`;
    this.#pending.textContent = count === 0 ? '' : `${edits} not sent yet: kept on this device`;
  }

  /** Says which edits did not apply, until the next edit. */
  showNotice(notice: string | undefined): void {
    if (notice === undefined) this.#notice.replaceChildren();
    else this.#notice.append(Object.assign(element('span'), { textContent: `${notice} ` }));
  }

  /** Gives a title whose creation failed back to the user, unless they typed on meanwhile. */
  restoreNewTodo(title: string): void {
    if (this.#newTodo.value === '') this.#newTodo.value = title;
  }
}
