import type { IdentifiedEvent } from '../live/events.ts';
import { isNotFound } from './api-request.ts';
import type { ConnectionState } from './live-feed.ts';
import { filterOfHash, type TodoModel } from './model.ts';
import type { Problems } from './problems.ts';
import type { TodoApi } from './todo-api.ts';
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

  /** `notFound` hears of an item request answered 404: an item, or the whole list, is gone. */
  constructor(
    private readonly api: TodoApi,
    private readonly model: TodoModel,
    private readonly view: TodoView,
    private readonly problems: Problems,
    private readonly notFound: () => void,
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
      () => this.problems.clear(),
      (error: unknown) => {
        if (this.#state === 'gone') return;
        onFailure?.();
        // A checkbox the user flipped goes back to what the list says.
        this.view.render(this.model.state());
        this.problems.show(error);
        if (isNotFound(error)) this.notFound();
      },
    );
  }
}
