import type { IdentifiedEvent } from '../model/events.ts';
import { ApiError, isNotFound, type TodoApi } from './api-client.ts';
import type { EditSync } from './edit-sync.ts';
import type { ConnectionState } from './event-stream.ts';
import type { TodoModel } from './model.ts';
import type { EditQueue } from './offline-queue.ts';
import type { LastSeen, SeenList } from './page-database.ts';
import type { Edit } from './pending-edit.ts';
import type { StreamInfo, TodoView } from './view.ts';

/** Wires the items' view to the server and back: an edit is a request online, else queued. */
export class TodoController {
  readonly #stream: StreamInfo = { state: 'connecting', snapshots: 0, changes: 0 };
  /** A view-only page, or one not yet known not to be, makes no edit: the service would refuse. */
  #editable = false;

  /**
   * `offline` keeps the list and its edits for when the service cannot be reached, and sends
   * them later; `notFound` hears of an item request answered 404: the list may be gone.
   */
  constructor(
    private readonly api: TodoApi,
    private readonly model: TodoModel,
    private readonly view: TodoView,
    private readonly offline: { queue: EditQueue; lastSeen: LastSeen; sync: EditSync },
    private readonly notFound: () => void,
  ) {}

  /** Whether the list's stream is open: the service is reachable. */
  get open(): boolean {
    return this.#stream.state === 'open';
  }

  start(): void {
    const { model } = this;
    this.view.bind({
      add: (title) => this.#make(model.create(title), () => this.view.restoreNewTodo(title)),
      toggle: (id, completed) => this.#make(model.update(id, { completed })),
      remove: (id) => this.#make(model.remove(id)),
      edit: (id, title) =>
        this.#make(title === '' ? model.remove(id) : model.update(id, { title })),
      toggleAll: (completed) => {
        for (const todo of model.shown()) this.#make(model.update(todo.id, { completed }));
      },
      clearCompleted: () => {
        for (const todo of model.shown()) if (todo.completed) this.#make(model.remove(todo.id));
      },
      hashChange: (hash) => {
        model.filterBy(hash);
        this.#render();
      },
    });
    this.view.showConnection(this.#stream);
  }

  /** Whether the page may change the list: told once the page knows which link opened it. */
  allowEdits(editable: boolean): void {
    this.#editable = editable;
    this.view.allowEdits(editable);
    this.#render();
  }

  /** Shows the list as this browser last saw it, unless the feed has given a newer one. */
  showLastSeen(seen: SeenList): void {
    if (this.model.version !== undefined) return;
    this.model.apply({ type: 'snapshot', id: seen.version, todos: seen.todos });
    this.#render();
  }

  receive(event: IdentifiedEvent): void {
    this.#stream[event.type === 'snapshot' ? 'snapshots' : 'changes'] += 1;
    this.#stream.lastEventId = event.id;
    this.model.apply(event);
    this.offline.lastSeen.write({ todos: this.model.all(), version: event.id });
    this.#settle();
    this.view.showConnection(this.#stream);
  }

  connection(state: ConnectionState): void {
    if (state === 'open' && !this.open) this.view.clearProblem(true);
    if (state === 'gone') {
      // The page says why instead; a request that failed because of it is no news.
      this.view.clearProblem();
      this.view.disable();
    }
    this.#stream.state = state;
    this.view.showConnection(this.#stream);
    if (state === 'open') void this.offline.sync.run();
  }

  /** The queue calls this when edits join or leave it, in this tab or another. */
  editsChanged(): void {
    this.#settle();
    void this.offline.sync.run();
  }

  /** Forgets the edits that landed and that the list shown has caught up with, and renders. */
  #settle(): void {
    this.offline.queue.settle((edit) => this.model.isShown(edit)).catch(() => {});
    this.#render();
  }

  #render(): void {
    this.view.render(this.model.state());
    this.view.showPending(this.offline.queue.kept);
  }

  /** Sends `edit` now if the service is reachable and nothing waits before it; else queues it. */
  #make(edit: Edit | undefined, onFailure?: () => void): void {
    if (edit === undefined || !this.#editable) return;
    this.view.showNotice(undefined);
    if (!this.open || this.offline.queue.waiting > 0) return this.#queue(edit);
    this.#sendNow(edit).then(
      () => this.view.clearProblem(),
      (error: unknown) => {
        if (this.#stream.state === 'gone') return;
        if (error instanceof ApiError && error.status === undefined) return this.#queue(edit);
        onFailure?.();
        // A checkbox the user flipped goes back to what the list says.
        this.#render();
        this.view.showProblem(error);
        if (isNotFound(error)) this.notFound();
      },
    );
  }

  #sendNow(edit: Edit): Promise<unknown> {
    if (edit.kind === 'create') return this.api.create(edit.title, edit.key);
    if (edit.kind === 'delete') return this.api.remove(edit.id);
    return this.api.update(edit);
  }

  #queue(edit: Edit): void {
    this.offline.queue.add(edit).catch((error: unknown) => {
      // Not kept (storage refused): the page shows the list without it again.
      this.#render();
      this.view.showProblem(error);
    });
  }
}
