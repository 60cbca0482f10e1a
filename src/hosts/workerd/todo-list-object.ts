import { DurableObject } from 'cloudflare:workers';
import { createApp, type App } from '../../app.ts';
import { placeOfEventId } from '../../live/events.ts';
import { singleList } from '../../lists/single-list.ts';
import type { TodoList } from '../../lists/todo-list.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { StoredList } from '../../todos/store.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { durableSql } from './durable-sql.ts';
import { LIST_NAME, type Env } from './env.ts';
import { EventSockets } from './event-sockets.ts';
import { listIdOf } from './object-ids.ts';
import { workerConfigFromVars } from './vars-config.ts';

/** What making a list by RPC gave: the list as made, or the problem to answer with. */
export type ListCreated =
  | { readonly made: StoredList }
  | { readonly refused: { readonly status: number; readonly detail: string } };

/**
 * One list's object, reached from whichever isolate: the default list's (`/api/todos`,
 * `/api/sse`), or a named list's (`/api/lists/{id}/…`), whose id is the object's own. It holds
 * the handler, and with it the list, in its memory; see `singleList` for where each kind of
 * list is kept. Its event streams are hibernatable WebSockets to the workers that carry them to
 * their clients (`EventSockets`): it keeps no timer and no request open, so it leaves memory
 * when nothing changes, and is woken for the next change.
 */
export class TodoListObject extends DurableObject<Env> {
  protected readonly app: App;
  readonly #listId: string | undefined;
  readonly #sockets: EventSockets;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const { app: config, storage } = workerConfigFromVars(env);
    const isDefault = ctx.id.equals(env.TODO_LIST.idFromName(LIST_NAME));
    this.#listId = isDefault ? undefined : listIdOf(ctx.id);
    this.#sockets = new EventSockets(ctx, () => placeOfEventId(this.#list()!.store.version)!.run);
    const lists = singleList({
      listId: this.#listId,
      keepDefault: storage === 'sqlite',
      sql: durableSql(ctx.storage),
      deleteAll: () => ctx.storage.deleteAll(),
    });
    this.app = createApp({
      config,
      lists,
      host: { openEventChannel: this.#sockets.open, writesHeartbeats: false },
    });
    this.#sockets.adoptAll(() => this.#list());
  }

  /**
   * Makes this object's list, named `title`: the worker's `POST /api/lists`, by RPC. A refusal
   * comes back as a value: an error thrown across RPC loses its class and its status.
   */
  async create(title: string, idempotencyKey?: string): Promise<ListCreated> {
    try {
      return { made: await this.app.lists.create(title, idempotencyKey) };
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      return { refused: { status: error.status, detail: error.detail } };
    }
  }

  // The object, not the worker, must finish the body: workerd breaks the worker-to-object body
  // pipe when the object answers first, and the client then sees a reset or a hang.
  override fetch(request: Request): Promise<Response> {
    // The worker's request for a stream's socket, which outlives it: the handler must not hear
    // it end.
    if (request.method === 'GET' && request.headers.get('upgrade') === 'websocket') {
      return this.app.fetch(new Request(request.url, { headers: request.headers }));
    }
    return answerAfterBody(request, (forwarded) => this.app.fetch(forwarded));
  }

  override webSocketClose(socket: WebSocket): void {
    this.#sockets.closed(socket);
  }

  override webSocketError(socket: WebSocket): void {
    this.#sockets.closed(socket);
  }

  #list(): TodoList | undefined {
    const { lists } = this.app;
    return this.#listId === undefined ? lists.defaultList : lists.find(this.#listId);
  }
}
