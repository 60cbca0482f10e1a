import type { LiveEvent } from '../live/events.ts';
import type { ConnectionState } from './live-feed.ts';
import { filterOfHash, type TodoModel } from './model.ts';
import { StoreError, type TodoStore } from './store.ts';
import type { TodoView } from './view.ts';

/**
 * Wires the view to the server and back. User actions become requests; the list changes only
 * when the event stream says so, so this tab shows what every other tab shows.
 */
export class TodoController {
  #snapshots = 0;
  #lastEventId: string | undefined;
  #state: ConnectionState = 'connecting';

  constructor(
    private readonly store: TodoStore,
    private readonly model: TodoModel,
    private readonly view: TodoView,
  ) {}

  start(): void {
    this.model.setFilter(filterOfHash(this.view.hash));
    this.view.bind({
      add: (title) => this.#send(this.store.create(title), () => this.view.restoreNewTodo(title)),
      toggle: (id, completed) => this.#update(id, { completed }),
      remove: (id) => this.#send(this.store.remove(id)),
      edit: (id, title) => {
        if (title === '') this.#send(this.store.remove(id));
        else if (title !== this.model.get(id)?.title) this.#update(id, { title });
      },
      toggleAll: (completed) => {
        for (const todo of this.model.all()) {
          if (todo.completed !== completed) this.#send(this.store.update({ ...todo, completed }));
        }
      },
      clearCompleted: () => {
        for (const todo of this.model.all()) {
          if (todo.completed) this.#send(this.store.remove(todo.id));
        }
      },
      hashChange: (hash) => {
        this.model.setFilter(filterOfHash(hash));
        this.view.render(this.model.state());
      },
    });
    this.view.render(this.model.state());
    this.#showConnection();
  }

  /** The feed calls this for every event it reads. */
  receive(event: LiveEvent): void {
    if (event.type === 'snapshot') this.#snapshots += 1;
    this.#lastEventId = event.id;
    this.model.apply(event);
    this.view.render(this.model.state());
    this.#showConnection();
  }

  /** The feed calls this when the stream opens or drops. */
  connection(state: ConnectionState): void {
    this.#state = state;
    this.#showConnection();
  }

  #showConnection(): void {
    this.view.showConnection({
      state: this.#state,
      snapshots: this.#snapshots,
      lastEventId: this.#lastEventId,
    });
  }

  #update(id: string, fields: { title?: string; completed?: boolean }): void {
    const todo = this.model.get(id);
    if (todo !== undefined) this.#send(this.store.update({ ...todo, ...fields }));
  }

  #send(request: Promise<void>, onFailure?: () => void): void {
    request.then(
      () => this.view.showProblem(undefined),
      (error: unknown) => {
        onFailure?.();
        // A checkbox the user flipped goes back to what the list says.
        this.view.render(this.model.state());
        this.view.showProblem(
          error instanceof StoreError ? error.detail : 'Something went wrong. Try again.',
        );
      },
    );
  }
}
