import { DurableObject } from 'cloudflare:workers';
import { createApp, type App } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { HttpProblem } from '../../http/problem.ts';
import { base64UrlOf, bytesOfBase64Url } from '../../lists/list-id.ts';
import type { LiveList } from '../../lists/live-list.ts';
import { singleList } from '../../lists/single-list.ts';
import type { StoredList } from '../../store/changes.ts';
import { workerConfigOf } from './vars.ts';
import { EventSockets } from './event-sockets.ts';

/** The default list's object: every isolate addresses it by this name. */
export const LIST_NAME = 'todos';

/**
 * The object that holds the list with this id, or undefined when no object could. A named
 * list's id on workerd is its Durable Object's own id, in base64url (43 characters) rather than
 * hex: made by `newUniqueId()` (16 random bytes and 16 of a MAC under the namespace's key) or,
 * for a list made with an `Idempotency-Key`, by `idFromName` from the key. The runtime's own
 * `idFromString` checks that it belongs to the namespace, so an id nobody made is refused
 * before any object is woken, and no storage is ever made for it.
 */
export function objectIdOf(
  namespace: DurableObjectNamespace,
  listId: string,
): DurableObjectId | undefined {
  const bytes = bytesOfBase64Url(listId);
  if (bytes?.byteLength !== 32) return undefined;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  try {
    return namespace.idFromString(hex);
  } catch {
    // Not an id of this namespace: the MAC does not match.
    return undefined;
  }
}

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
    const idBytes = Uint8Array.from(ctx.id.toString().match(/../g)!, (hex) => parseInt(hex, 16));
    this.#listId = isDefault ? undefined : base64UrlOf(idBytes);
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
    this.app = createApp({
      listRoutesOnly: true,
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
 * How much of a refused body is still read: the largest body Cloudflare passes to a worker on
 * its Free and Pro plans. Less, and a body that goes on past it gets a reset, not the answer.
 */
const READ_REST_LIMIT_BYTES = 100 * 1024 * 1024;

/**
 * Answers `request` with `answer`, passing the body on through a stream of its own, and reads
 * what the handler left unread (up to `READ_REST_LIMIT_BYTES`) before the answer goes out:
 * workerd resets a connection whose body is still arriving when the response ends, and breaks
 * a body piped on to a Durable Object ("Network connection lost"). With `passAtMost`, the
 * stream passed on ends after that many bytes: the worker passes the object no more than its
 * handler needs to refuse a body, so the object can always read what it was given to the end.
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
