import type { IdentifiedEvent } from '../model/events.ts';
import { ApiError, isNotFound, type TodoApi } from './api-client.ts';
import { find } from './dom.ts';
import { EditSync } from './edit-sync.ts';
import type { ConnectionState } from './event-stream.ts';
import { ItemListView } from './item-list-view.ts';
import { TodoModel, type Edit } from './model.ts';
import { EditQueue } from './offline-queue.ts';
import { lastSeen } from './page-database.ts';
import type { StatusView, StreamInfo } from './status-view.ts';

/** The items and the controls that change them, online or offline (docs/page.md, Offline). */
export class TodoController {
  readonly #newTodo = find<HTMLInputElement>(document, '.new-todo');
  readonly #items = new ItemListView();
  readonly #stream: StreamInfo = { state: 'connecting', snapshots: 0, changes: 0 };
  readonly #model = new TodoModel(() => this.#queue.edits);
  readonly #queue: EditQueue;
  readonly #sync: EditSync;
  /** A view-only page, or one not yet known not to be, makes no edit: the service would refuse. */
  #editable = false;

  /** `list`: `''` for the default; `leads`: whether this tab sends the queue; `notFound`: a 404. */
  constructor(
    private readonly list: string,
    private readonly api: TodoApi,
    private readonly status: StatusView,
    leads: () => boolean,
    private readonly notFound: () => void,
  ) {
    this.#queue = new EditQueue(list, {
      changed: () => {
        this.#settle();
        void this.#sync.run();
      },
      notApplied: (notice) => status.showNotice(notice),
    });
    this.#sync = new EditSync(this.#queue, api, () => leads() && this.#open);
  }

  /** Whether the list's stream is open: the service is reachable. */
  get #open(): boolean {
    return this.#stream.state === 'open';
  }

  start(): void {
    const model = this.#model;
    this.#newTodo.addEventListener('keydown', (event) => {
      const title = this.#newTodo.value.trim();
      if (event.key !== 'Enter' || event.isComposing || title === '') return;
      this.#newTodo.value = '';
      // A title whose creation failed goes back to the user, unless they typed on meanwhile.
      this.#make(model.create(title), () => (this.#newTodo.value ||= title));
    });
    this.#items.bind({
      toggle: (id, completed) => this.#make(model.update(id, { completed })),
      edit: (id, title) =>
        this.#make(title === '' ? model.remove(id) : model.update(id, { title })),
      remove: (id) => this.#make(model.remove(id)),
      toggleAll: (completed) => {
        for (const todo of model.shown()) this.#make(model.update(todo.id, { completed }));
      },
      clearCompleted: () => {
        for (const todo of model.shown()) if (todo.completed) this.#make(model.remove(todo.id));
      },
    });
    addEventListener('hashchange', () => this.#render());
    this.#render();
    this.status.showConnection(this.#stream);
    void lastSeen.read(this.list).then((seen) => {
      // Shown unless the feed has given a newer list.
      if (seen === undefined || model.version !== undefined) return;
      model.apply({ type: 'snapshot', id: seen.version, todos: seen.todos });
      this.#render();
    });
    this.#queue.start().catch((error: unknown) => this.status.showProblem(error));
  }

  /** Whether the page may change the list: told once the page knows which link opened it. */
  allowEdits(editable: boolean): void {
    // The field's autofocus found it hidden: it takes the focus if nothing else has it.
    const focus = editable && this.#newTodo.hidden && document.activeElement === document.body;
    this.#editable = editable;
    this.#render();
    if (focus && !this.#newTodo.hidden) this.#newTodo.focus();
  }

  receive(event: IdentifiedEvent): void {
    this.#stream[event.type === 'snapshot' ? 'snapshots' : 'changes'] += 1;
    this.#stream.lastEventId = event.id;
    this.#model.apply(event);
    lastSeen.write(this.list, { todos: this.#model.all(), version: event.id });
    this.#settle();
    this.status.showConnection(this.#stream);
  }

  connection(state: ConnectionState): void {
    if (state === 'open' && !this.#open) this.status.clearProblem(true);
    // Gone, the page says why instead; a request that failed because of it is no news.
    if (state === 'gone') this.status.clearProblem();
    this.#stream.state = state;
    this.status.showConnection(this.#stream);
    this.#render();
    if (state === 'open') void this.#sync.run();
  }

  #settle(): void {
    this.#queue.settle((edit) => this.#model.isShown(edit)).catch(() => {});
    this.#render();
  }

  /** Once the list is gone, shows no item and no control to make one. */
  #render(): void {
    const gone = this.#stream.state === 'gone';
    this.status.showPending(this.#queue.kept);
    this.#newTodo.hidden = gone || !this.#editable;
    this.#newTodo.disabled = gone || !this.#editable;
    this.#items.render(gone ? [] : this.#model.shown(), this.#editable && !gone);
  }

  /** Sends `edit` now if the service is reachable and nothing waits before it; else queues it. */
  #make(edit: Edit | undefined, onFailure?: () => void): void {
    if (edit === undefined || !this.#editable) return;
    this.status.showNotice(undefined);
    if (!this.#open || this.#queue.waiting > 0) return this.#keep(edit);
    this.api.sendEdit(edit).then(
      () => this.status.clearProblem(),
      (error: unknown) => {
        if (this.#stream.state === 'gone') return;
        if (error instanceof ApiError && error.status === undefined) return this.#keep(edit);
        onFailure?.();
        // A checkbox the user flipped goes back to what the list says.
        this.#render();
        this.status.showProblem(error);
        if (isNotFound(error)) this.notFound();
      },
    );
  }

  #keep(edit: Edit): void {
    this.#queue.add(edit).catch((error: unknown) => {
      // Not kept (storage refused): the page shows the list without it again.
      this.#render();
      this.status.showProblem(error);
    });
  }
}
