import type { IdentifiedEvent } from '../model/events.ts';
import { ApiError, isNotFound } from './api-request.ts';
import type { LastSeen, SeenList } from './last-seen.ts';
import type { ConnectionState } from './event-stream.ts';
import { filterOfHash, type TodoModel } from './model.ts';
import type { EditQueue } from './offline-queue.ts';
import type { Edit } from './pending-edit.ts';
import type { Problems } from './problems.ts';
import type { TodoApi } from './todo-api.ts';
import { UserEdits } from './user-edits.ts';
import type { TodoView } from './view.ts';

/** What keeps the list's edits while the service cannot be reached, and sends them later. */
export interface OfflineEdits {
  readonly queue: EditQueue;
  readonly lastSeen: LastSeen;
  /** Sends the queue, if this tab is the one that does. */
  readonly sync: { run(): void };
}

/**
 * Wires the view to the server and back. Online, user actions become requests, and the list
 * changes only when the live feed says so, so this tab shows what every other tab shows.
 * Offline, or while earlier edits wait, an edit joins the queue and shows at once as pending.
 */
export class TodoController {
  #snapshots = 0;
  #changes = 0;
  #lastEventId: string | undefined;
  /** The version of the list the model holds, whether from the feed or as last seen. */
  #version: string | undefined;
  #state: ConnectionState = 'connecting';
  readonly #edits: UserEdits;

  /** `notFound` hears of an item request answered 404: an item, or the whole list, is gone. */
  constructor(
    private readonly api: TodoApi,
    private readonly model: TodoModel,
    private readonly view: TodoView,
    private readonly problems: Problems,
    private readonly offline: OfflineEdits,
    private readonly notFound: () => void,
  ) {
    this.#edits = new UserEdits(
      model,
      () => this.#version,
      () => offline.queue.edits,
    );
  }

  /** Whether the list's stream is open: the service is reachable. */
  get open(): boolean {
    return this.#state === 'open';
  }

  start(): void {
    this.model.setFilter(filterOfHash(this.view.hash));
    this.view.bind({
      add: (title) => this.#make(this.#edits.create(title), () => this.view.restoreNewTodo(title)),
      toggle: (id, completed) => this.#make(this.#edits.update(id, { completed })),
      remove: (id) => this.#make(this.#edits.remove(id)),
      edit: (id, title) => {
        this.#make(title === '' ? this.#edits.remove(id) : this.#edits.update(id, { title }));
      },
      toggleAll: (completed) => {
        for (const todo of this.#edits.shown()) {
          this.#make(this.#edits.update(todo.id, { completed }));
        }
      },
      clearCompleted: () => {
        for (const todo of this.#edits.shown()) {
          if (todo.completed) this.#make(this.#edits.remove(todo.id));
        }
      },
      hashChange: (hash) => {
        this.model.setFilter(filterOfHash(hash));
        this.#render();
      },
    });
    this.#render();
    this.#showConnection();
  }

  /** Shows the list as this browser last saw it, unless the feed has given a newer one. */
  showLastSeen(seen: SeenList): void {
    if (this.#version !== undefined) return;
    this.#version = seen.version;
    this.model.apply({ type: 'snapshot', id: seen.version, todos: seen.todos });
    this.#render();
  }

  /** The feed calls this for every event it reads. */
  receive(event: IdentifiedEvent): void {
    if (event.type === 'snapshot') this.#snapshots += 1;
    else this.#changes += 1;
    this.#lastEventId = event.id;
    this.#version = event.id;
    this.model.apply(event);
    this.offline.lastSeen.write({ todos: this.model.all(), version: event.id });
    this.#settle();
    this.#render();
    this.#showConnection();
  }

  /** The feed calls this when the stream opens or drops, or the list turns out to be gone. */
  connection(state: ConnectionState): void {
    if (state === 'open' && this.#state !== 'open') this.problems.reconnected();
    if (state === 'gone') {
      // The page says why instead; a request that failed because of it is no news.
      this.problems.clear();
      this.view.disable();
    }
    this.#state = state;
    this.#showConnection();
    if (state === 'open') this.offline.sync.run();
  }

  /** The queue calls this when edits join or leave it, in this tab or another. */
  editsChanged(): void {
    this.#settle();
    this.#render();
    this.offline.sync.run();
  }

  /** Forgets the edits that landed and that the list shown has caught up with. */
  #settle(): void {
    this.offline.queue.settle((edit) => this.#edits.isShown(edit)).catch(() => {});
  }

  #render(): void {
    this.view.render(this.model.state(this.#edits.overlay()));
    this.view.showPending(this.offline.queue.kept);
  }

  #showConnection(): void {
    this.view.showConnection({
      state: this.#state,
      snapshots: this.#snapshots,
      changes: this.#changes,
      lastEventId: this.#lastEventId,
    });
  }

  /**
   * Sends `edit` at once when the service is reachable and nothing waits before it; else, or
   * when the service turns out not to be reachable after all, queues it.
   */
  #make(edit: Edit | undefined, onFailure?: () => void): void {
    if (edit === undefined) return;
    this.view.showNotice(undefined);
    if (!this.open || this.offline.queue.waiting > 0) return this.#queue(edit);
    this.#sendNow(edit).then(
      () => this.problems.clear(),
      (error: unknown) => {
        if (this.#state === 'gone') return;
        if (error instanceof ApiError && error.status === undefined) return this.#queue(edit);
        onFailure?.();
        // A checkbox the user flipped goes back to what the list says.
        this.#render();
        this.problems.show(error);
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
      this.problems.show(error);
    });
  }
}
