import { ApiError } from './api-client.ts';
import { element, ENTER_KEY, find } from './dom.ts';
import type { ConnectionState } from './event-stream.ts';
import { ItemListView, type ViewHandlers } from './item-list-view.ts';
import { FILTER_HASHES, type ListState } from './model.ts';

/** The stream's state, and the events applied: tests see in them that none was lost or doubled. */
export interface StreamInfo {
  state: ConnectionState;
  snapshots: number;
  changes: number;
  lastEventId?: string;
}

/** The page but the list's own controls (`ListView`); the items are an `ItemListView`. */
export class TodoView {
  readonly #newTodo = find<HTMLInputElement>(document, '.new-todo');
  readonly #main = find<HTMLElement>(document, '.main');
  readonly #toggleAll = find<HTMLInputElement>(document, '.toggle-all');
  readonly #toggleAllLabel = find<HTMLLabelElement>(document, 'label[for="toggle-all"]');
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
  /** Whether the page may change the list: not until it knows it is not a view-only page. */
  #editable = false;
  /** The problem shown came from not reaching the service. */
  #transientProblem = false;

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
    const hashChange = () => handlers.hashChange(location.hash);
    window.addEventListener('hashchange', hashChange);
    this.#items.bind(handlers);
    hashChange();
  }

  render(state: ListState): void {
    if (this.#disabled) return;
    this.#items.render(state.visible, this.#editable);
    this.#main.hidden = state.total === 0;
    this.#footer.hidden = state.total === 0;
    this.#toggleAll.checked = state.total > 0 && state.completed === state.total;
    for (const part of [this.#toggleAll, this.#toggleAllLabel]) part.hidden = !this.#editable;
    this.#toggleAll.disabled = !this.#editable;
    const active = element('strong', { textContent: String(state.active) });
    this.#count.replaceChildren(active, ` ${state.active === 1 ? 'item' : 'items'} left`);
    for (const link of this.#filters) {
      const selected = link.getAttribute('href') === FILTER_HASHES[state.filter];
      link.classList.toggle('selected', selected);
      if (selected) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    this.#clearCompleted.hidden = !this.#editable || state.completed === 0;
  }

  /** Shows or hides what changes the list; `render` follows, for the items and the footer. */
  allowEdits(editable: boolean): void {
    if (this.#disabled) return;
    // The field's autofocus found it hidden: it takes the focus if nothing else has it.
    const focus = editable && this.#newTodo.hidden && document.activeElement === document.body;
    this.#editable = editable;
    this.#newTodo.hidden = this.#newTodo.disabled = !editable;
    if (focus) this.#newTodo.focus();
  }

  /** Says when the list may be out of date; its data attributes show the stream to tests. */
  showConnection(info: Readonly<StreamInfo>): void {
    this.#connection.textContent = info.state === 'reconnecting' ? 'Reconnecting…' : '';
    this.#connection.dataset.state = info.state;
    this.#connection.dataset.snapshots = String(info.snapshots);
    this.#connection.dataset.changes = String(info.changes);
    this.#connection.dataset.lastEventId = info.lastEventId ?? '';
  }

  /** The list is gone: hides its items, ending any edit unsaved, and the new-todo field. */
  disable(): void {
    this.#items.render([], false);
    this.#disabled = true;
    this.#newTodo.disabled = true;
    for (const part of [this.#newTodo, this.#main, this.#footer]) part.hidden = true;
  }

  /**
   * Says why the last request failed, whichever control sent it: a refusal (a title too long,
   * say) until the next request, a failure to reach the service until the stream is open again.
   */
  showProblem(error: unknown): void {
    const known = error instanceof ApiError;
    this.#problem.textContent = known ? error.message : 'Something went wrong. Try again.';
    this.#transientProblem = !known || error.transient;
  }

  /** With `transientOnly`, the service is reachable again: only a failure to reach it goes. */
  clearProblem(transientOnly = false): void {
    if (transientOnly && !this.#transientProblem) return;
    this.#problem.textContent = '';
    this.#transientProblem = false;
  }

  /** How many edits are kept on this device to be sent; a deleted item's shows nowhere else. */
  showPending(count: number): void {
    const edits = count === 1 ? '1 change' : `${count} changes`;
    this.#pending.textContent = count === 0 ? '' : `${edits} not sent yet: kept on this device`;
  }

  /** Says which edits did not apply, until the next edit. */
  showNotice(notice: string | undefined): void {
    if (notice === undefined) this.#notice.replaceChildren();
    else this.#notice.append(element('span', { textContent: `${notice} ` }));
  }

  /** Gives a title whose creation failed back to the user, unless they typed on meanwhile. */
  restoreNewTodo(title: string): void {
    if (this.#newTodo.value === '') this.#newTodo.value = title;
  }
}
