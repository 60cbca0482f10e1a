import type { IdentifiedEvent } from '../live/events.ts';
import type { ConnectionState } from './live-feed.ts';
import { filterOfHash, type TodoModel } from './model.ts';
import { ApiError, type TodoApi } from './todo-api.ts';
import type { TodoView } from './view.ts';

/**
 * Wires the view to the server and back. User actions become requests; the list changes only
 * when the live feed says so, so this tab shows what every other tab shows.
 */
export class TodoController {
  #snapshots = 0;
  #changes = 0;
  #lastEventId: string | undefined;
  #state: ConnectionState = 'connecting';
  /** A problem on screen that came from not reaching the service. */
  #transientProblem = false;

  constructor(
    private readonly api: TodoApi,
    private readonly model: TodoModel,
    private readonly view: TodoView,
  ) {}

  start(): void {
    this.model.setFilter(filterOfHash(this.view.hash));
    this.view.bind({
      add: (title) => this.#send(this.api.create(title), () => this.view.restoreNewTodo(title)),
      toggle: (id, completed) => this.#update(id, { completed }),
      remove: (id) => this.#send(this.api.remove(id)),
      edit: (id, title) => {
        if (title === '') this.#send(this.api.remove(id));
        else if (title !== this.model.get(id)?.title) this.#update(id, { title });
      },
      toggleAll: (completed) => {
        for (const todo of this.model.all()) {
          if (todo.completed !== completed) this.#send(this.api.update({ ...todo, completed }));
        }
      },
      clearCompleted: () => {
        for (const todo of this.model.all()) {
          if (todo.completed) this.#send(this.api.remove(todo.id));
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
  receive(event: IdentifiedEvent): void {
    if (event.type === 'snapshot') this.#snapshots += 1;
    else this.#changes += 1;
    this.#lastEventId = event.id;
    this.model.apply(event);
    this.view.render(this.model.state());
    this.#showConnection();
  }

  /** The feed calls this when the stream opens or drops. */
  connection(state: ConnectionState): void {
    // Connected again, the service is reachable: an earlier failure to reach it no longer is
    // news. A refusal (a title too long, say) stays until the next request.
    if (state === 'open' && this.#state !== 'open' && this.#transientProblem) {
      this.#showProblem(undefined);
    }
    this.#state = state;
    this.#showConnection();
  }

  #showConnection(): void {
    this.view.showConnection({
      state: this.#state,
      snapshots: this.#snapshots,
      changes: this.#changes,
      lastEventId: this.#lastEventId,
    });
  }

  #update(id: string, fields: { title?: string; completed?: boolean }): void {
    const todo = this.model.get(id);
    if (todo !== undefined) this.#send(this.api.update({ ...todo, ...fields }));
  }

  #send(request: Promise<void>, onFailure?: () => void): void {
    request.then(
      () => this.#showProblem(undefined),
      (error: unknown) => {
        onFailure?.();
        // A checkbox the user flipped goes back to what the list says.
        this.view.render(this.model.state());
        if (error instanceof ApiError) this.#showProblem(error.detail, error.transient);
        else this.#showProblem('Something went wrong. Try again.', true);
      },
    );
  }

  #showProblem(detail: string | undefined, transient = false): void {
    this.#transientProblem = detail !== undefined && transient;
    this.view.showProblem(detail);
  }
}
