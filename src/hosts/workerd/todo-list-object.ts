import { DurableObject } from 'cloudflare:workers';
import { createListApp, type App } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { LiveList } from '../../lists/live-list.ts';
import { singleList } from '../../lists/single-list.ts';
import type { StoredList } from '../../store/changes.ts';
import { LIST_NAME, listIdOf } from './object-ids.ts';
import { workerConfigOf } from './vars.ts';
import { EventSockets } from './event-sockets.ts';

/** The bindings `wrangler.toml` gives the worker and the objects. */
export interface Env {
  /** The namespace of the objects that hold the lists, one object a list. */
  readonly TODO_LIST: DurableObjectNamespace<TodoListObject>;
  /** `public/`, uploaded as Workers static assets. */
  readonly ASSETS: Fetcher;
  /** The `[vars]`: the handler's limits, read by `workerConfigOf` (vars.ts). */
  readonly [variable: string]: unknown;
}

/** What making a list by RPC gave: the list as made, or the problem to answer with. */
export type ListCreated =
  | { readonly made: StoredList }
  | { readonly refused: { readonly status: number; readonly detail: string } };

/**
 * One list's object, reached from whichever isolate: the default list's (`/api/todos`,
 * `/api/sse`), or a named list's (`/api/lists/{id}/…`), whose id is the object's own. It holds
 * the list's routes, and with them the list, in its memory; see `singleList` for where each
 * kind of list is kept. Its event streams are hibernatable WebSockets to the workers that carry
 * them to their clients (`EventSockets`): it keeps no timer and no request open, so it leaves
 * memory when nothing changes, and is woken for the next change.
 */
export class TodoListObject extends DurableObject<Env> {
  protected readonly app: App;
  readonly #listId: string | undefined;
  readonly #sockets: EventSockets;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const config = workerConfigOf(env);
    // The worker answers every request itself while `[vars]` are wrong: none reaches here.
    if (config instanceof ConfigError) throw config;
    const isDefault = ctx.id.equals(env.TODO_LIST.idFromName(LIST_NAME));
    this.#listId = isDefault ? undefined : listIdOf(ctx.id);
    this.#sockets = new EventSockets(ctx, () => this.#list()!.store.run);
    const { storage } = ctx;
    const lists = singleList({
      listId: this.#listId,
      keepDefault: config.storage === 'sqlite',
      // The object's SQLite storage: its writes are held back from the network until they
      // are durable (the output gate), so no answer outruns its commit.
      sql: {
        all: <Row extends object>(sql: string, ...params: (string | number | null)[]) =>
          storage.sql.exec(sql, ...params).toArray() as Row[],
        run: (sql, ...params) => void storage.sql.exec(sql, ...params),
        transaction: (work) => storage.transactionSync(work),
      },
      deleteAll: () => storage.deleteAll(),
    });
    this.app = createListApp({
      config: config.app,
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

  #list(): LiveList | undefined {
    const { lists } = this.app;
    return this.#listId === undefined ? lists.defaultList : lists.named.get(this.#listId);
  }
}

/**
 * How much of a refused body is still read, so that its sender sees the answer: the largest
 * body Cloudflare passes to a worker on its Free and Pro plans (it answers 413 itself above
 * that). Read any less, and a body that goes on past it gets a reset instead of the answer;
 * under `wrangler dev`, whose proxy forwards each request to the worker, a 500 and a logged
 * "Network connection lost".
 */
const READ_REST_LIMIT_BYTES = 100 * 1024 * 1024;

/**
 * Answers `request` with `answer`, passing the body on through a stream of its own, and reads
 * what the handler left unread (up to `READ_REST_LIMIT_BYTES`) before the answer goes out.
 * workerd resets a connection whose request body is still arriving when the response ends, so a
 * client streaming an oversized body would see ECONNRESET instead of the 413, and a body piped
 * on to a Durable Object breaks with "Network connection lost". The handler itself still
 * decides after at most `limits.maxBodyBytes`.
 *
 * With `passAtMost`, the stream passed on ends after that many bytes and the rest is read
 * here. The worker passes the object no more than its handler needs to refuse a body, so the
 * object can always read what it was given to the end: an object that stops reading a body
 * piped to it breaks the pipe just as one that never starts does.
 */
export async function answerAfterBody(
  request: Request,
  answer: (request: Request) => Promise<Response>,
  passAtMost = Infinity,
): Promise<Response> {
  if (request.body === null) return answer(request);
  const source = request.body.getReader();
  let passed = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = passed < passAtMost ? await source.read() : { done: true };
        if (done) return controller.close();
        const part = value.subarray(0, passAtMost - passed);
        passed += part.byteLength;
        controller.enqueue(part);
      },
    },
    { highWaterMark: 0 },
  );
  const response = await answer(new Request(request, { body }));
  try {
    for (let read = 0; read <= READ_REST_LIMIT_BYTES;) {
      const { done, value } = await source.read();
      if (done) return response;
      read += value.byteLength;
    }
    await source.cancel();
  } catch {
    // The client went away; there is nothing left to read.
  }
  return response;
}
