import { DurableObject } from 'cloudflare:workers';
import { createApp, type App } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { HttpProblem } from '../../http/problem.ts';
import { IDEMPOTENCY_KEY } from '../../http/request.ts';
import { base64UrlOf, bytesOfBase64Url, ViewIds } from '../../lists/list-id.ts';
import type { ListDirectory } from '../../lists/live-list.ts';
import { singleList } from '../../lists/single-list.ts';
import type { StoredList } from '../../store/changes.ts';
import { configFromVars } from './vars.ts';
import { reportError } from './error-log.ts';
import { EventSockets } from './event-sockets.ts';

/** The default list's object: every isolate addresses it by this name. */
export const LIST_NAME = 'todos';

/** The object whose id the list id is, in base64url; none where `idFromString` refuses its MAC. */
export function objectIdOf(namespace: DurableObjectNamespace, listId: string) {
  const bytes = bytesOfBase64Url(listId);
  if (bytes?.byteLength !== 32) return undefined;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  try {
    return namespace.idFromString(hex);
  } catch {
    return undefined;
  }
}

/** The bindings `wrangler.toml` gives the worker and the objects, and its `[vars]`. */
export interface Env {
  readonly TODO_LIST: DurableObjectNamespace<TodoListObject>;
  readonly ASSETS: Fetcher;
  readonly LIST_CREATIONS?: RateLimit;
  readonly [variable: string]: unknown;
}

/** What making a list by RPC gave: the list as made, or the problem to answer with. */
type ListCreated =
  | { readonly made: StoredList }
  | { readonly refused: { readonly status: number; readonly detail: string } };

/** One list's object: with no timer and no request open, it leaves memory when nothing changes. */
export class TodoListObject extends DurableObject<Env> {
  protected readonly app: App;
  readonly #sockets: EventSockets;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const config = configFromVars(env);
    // The worker answers every request itself while `[vars]` are wrong: none reaches here.
    if (config instanceof ConfigError) throw config;
    const isDefault = ctx.id.equals(env.TODO_LIST.idFromName(LIST_NAME));
    const idBytes = Uint8Array.from(ctx.id.toString().match(/../g)!, (hex) => parseInt(hex, 16));
    const listId = isDefault ? undefined : base64UrlOf(idBytes);
    this.#sockets = new EventSockets(ctx, () =>
      listId === undefined ? this.app.lists.defaultList : this.app.lists.named.get(listId),
    );
    this.app = createApp({
      listRoutesOnly: true,
      config: config.app,
      lists: singleList({
        listId,
        keepDefault: config.storage === 'sqlite',
        // The output gate holds answers back until the writes are durable: none outruns its commit.
        sql: {
          all: <Row extends object>(sql: string, ...params: (string | number | null)[]) =>
            ctx.storage.sql.exec(sql, ...params).toArray() as Row[],
          run: (sql, ...params) => void ctx.storage.sql.exec(sql, ...params),
          transaction: (work) => ctx.storage.transactionSync(work),
        },
        deleteAll: () => ctx.storage.deleteAll(),
      }),
      viewIds: new ViewIds(config.viewSecret),
      host: { openEventChannel: this.#sockets.open, writesHeartbeats: false, reportError },
    });
    // What streams send of the list holds its view id. A failure resets the object, logged.
    ctx.blockConcurrencyWhile(() => this.#sockets.adoptAll()).catch(reportError);
  }

  /**
   * Makes this object's list, a refusal as a value: an error thrown across RPC loses its class.
   * `admit`, the worker's, says just before whether it may be made; a retry meanwhile is 409.
   */
  async create(title: string, key?: string, admit?: () => Promise<boolean>): Promise<ListCreated> {
    // The worker answers with its own refusal, which keeps its headers.
    const admitted = async () => {
      if (admit && !(await admit())) throw new HttpProblem(429, 'Not admitted by the worker.');
    };
    try {
      return { made: await this.app.lists.create(title, key, admitted) };
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      return { refused: { status: error.status, detail: error.detail } };
    }
  }

  override fetch(request: Request): Promise<Response> {
    // The request for a stream's socket, which outlives it: the handler must not hear it end.
    if (request.method === 'GET' && request.headers.get('upgrade') === 'websocket') {
      return this.app.fetch(new Request(request.url, { headers: request.headers }));
    }
    return this.app.fetch(request);
  }

  override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    this.#sockets.received(socket, message);
  }

  override webSocketClose(socket: WebSocket): void {
    this.#sockets.closed(socket);
  }

  override webSocketError(socket: WebSocket): void {
    this.#sockets.closed(socket);
  }
}

/**
 * The worker's lists: none held; each made in an object of its own, named after its key if any:
 * that object answers a retry as it answered the first create, so no directory of keys is kept.
 */
export function workerLists({ TODO_LIST }: Env): ListDirectory {
  const madeBy = (created: ListCreated, refusal?: unknown): StoredList => {
    if (!('refused' in created)) return created.made;
    throw refusal ?? new HttpProblem(created.refused.status, created.refused.detail);
  };
  return {
    defaultList: undefined,
    named: new Map(),
    create: async (title, key, admit = async () => {}) => {
      if (key === undefined) {
        await admit();
        return madeBy(await TODO_LIST.get(TODO_LIST.newUniqueId()).create(title));
      }
      // Counted as the object is about to make the list (docs/hosts.md); a refusal stays here.
      let refusal: unknown;
      const keepRefusal = (error: unknown) => {
        refusal = error;
        return false;
      };
      const admitted = () => admit().then(() => true, keepRefusal);
      // Never the default list's object: the name has a space.
      const object = TODO_LIST.get(TODO_LIST.idFromName(`${IDEMPOTENCY_KEY} ${key}`));
      const created = await object.create(title, key, admitted);
      return madeBy(created, refusal);
    },
    delete: () => Promise.reject(new Error('The worker holds no list to delete.')),
    inMemory: () => [],
  };
}
