import worker, { TodoListObject as ListObject } from '../../src/hosts/workerd/worker.ts';
import { LIST_NAME, objectIdOf, type Env } from '../../src/hosts/workerd/todo-list-object.ts';
import { FORGET_REASON, TEST_PATHS, TO_FORMAT_ONE } from './test-paths.ts';

/**
 * The real object under the name `wrangler.toml` binds, plus what only a test may do to it.
 * The test hosts reach these through `TEST_PATHS`.
 */
export class TodoListObject extends ListObject {
  /** Which instance of the object this is: a new one after an eviction or hibernation. */
  readonly #instance = crypto.randomUUID();
  #requestsInFlight = 0;

  /**
   * Counts each request until its answer has gone out: an event stream's until its body ends.
   * Other bodies are whole when answered, and are passed on untouched.
   */
  override async fetch(request: Request): Promise<Response> {
    this.#requestsInFlight += 1;
    let response: Response;
    try {
      response = await super.fetch(request);
    } catch (error) {
      this.#requestsInFlight -= 1;
      throw error;
    }
    if (response.headers.get('content-type') !== 'text/event-stream' || response.body === null) {
      this.#requestsInFlight -= 1;
      return response;
    }
    const { readable, writable } = new TransformStream();
    void response.body
      .pipeTo(writable)
      .catch(() => {})
      .finally(() => (this.#requestsInFlight -= 1));
    return new Response(readable, response);
  }

  /** What keeps the object in memory, as `Workerd.objectState` gives it. */
  objectState() {
    return {
      instance: this.#instance,
      requestsInFlight: this.#requestsInFlight,
      webSockets: this.ctx.getWebSockets().length,
    };
  }

  /** Drops the object from memory, as an eviction does: the next request meets a new one. */
  evict(): void {
    this.ctx.abort(FORGET_REASON);
  }

  /** Evicts the object with its storage wiped: the next request meets an empty list. */
  async forget(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.evict();
  }

  /**
   * As `TEST_PATHS.crashAfterNextWrite` says: the write's caller gets an error in place of its
   * result, so nothing it does next happens, and the object is reset once the write is durable.
   */
  crashAfterNextWrite(): void {
    const storage = this.ctx.storage;
    const { deleteAll, transactionSync } = storage;
    let crashed = false;
    const crashIfFirst = () => {
      if (crashed) return;
      crashed = true;
      void storage.sync().then(() => this.ctx.abort(FORGET_REASON));
      throw new Error(FORGET_REASON);
    };
    storage.deleteAll = async (...args) => {
      await deleteAll.apply(storage, args);
      crashIfFirst();
    };
    storage.transactionSync = <T>(work: () => T): T => {
      const result = transactionSync.call(storage, work) as T;
      crashIfFirst();
      return result;
    };
  }

  /** What the object still holds for event clients, as `TestService.streamStats` gives it. */
  streamStats() {
    return {
      openStreams: this.app.events.openCount,
      heartbeatRunning: this.app.events.heartbeatRunning,
    };
  }

  /** Adds `count` items titled `title` to the list `listId`, or the default list. */
  async seed(count: number, title: string, listId?: string): Promise<void> {
    const { lists } = this.app;
    const { store } = listId === undefined ? lists.defaultList! : lists.named.get(listId)!;
    const items = Array.from({ length: count }, () => store.create({ title, completed: false }));
    await Promise.all(items);
  }

  objectId(): string {
    return this.ctx.id.toString();
  }

  /**
   * A table of a format from before formats were numbered, in place of today's tables. An
   * eviction must follow, in a call of its own: one in this call would drop this write with it.
   */
  olderFormat(): void {
    const sql = this.ctx.storage.sql;
    // Not deleteAll(), whose wiping would take this write with it.
    const tables = sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray();
    for (const { name } of tables) {
      if (!String(name).startsWith('_')) sql.exec(`DROP TABLE IF EXISTS "${String(name)}"`);
    }
    sql.exec('CREATE TABLE list_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  }

  /** Today's tables turned back into format 1's; an eviction must follow, as for `olderFormat`. */
  formatOne(): void {
    for (const statement of TO_FORMAT_ONE) this.ctx.storage.sql.exec(statement);
  }
}

type TestNamespace = DurableObjectNamespace<TodoListObject>;

/** How many times the worker has addressed an object: each time may wake one. */
let objectsAddressed = 0;

/** The namespace as the worker gets it, counting each object it addresses. */
function counting(namespace: TestNamespace): TestNamespace {
  return new Proxy(namespace, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'get') return value.bind(target);
      return (...args: unknown[]) => {
        objectsAddressed += 1;
        return Reflect.apply(value, target, args);
      };
    },
  });
}

/** The list creations waiting to be counted, while `TEST_PATHS.holdListCreations` holds them. */
let creationsWaiting: (() => void)[] | undefined;

/** The worker's rate limit binding, each call of which waits while creations are held. */
function holding(binding: RateLimit): RateLimit {
  return {
    async limit(options) {
      if (creationsWaiting !== undefined) {
        await new Promise<void>((resolve) => creationsWaiting!.push(resolve));
      }
      return binding.limit(options);
    },
  };
}

/** The object a test path names: `?list=<id>`'s, or the default list's. */
function objectOf(url: URL, env: Env) {
  const namespace = env.TODO_LIST as unknown as TestNamespace;
  const list = url.searchParams.get('list');
  const id = list === null ? namespace.idFromName(LIST_NAME) : objectIdOf(namespace, list);
  if (id === undefined) throw new Error(`${list} is no list's id`);
  return namespace.get(id);
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const path = url.pathname;
    if (
      path === TEST_PATHS.forget ||
      path === TEST_PATHS.evict ||
      path === TEST_PATHS.olderFormat ||
      path === TEST_PATHS.formatOne
    ) {
      const object = objectOf(url, env);
      const rewriteTables = () =>
        path === TEST_PATHS.olderFormat ? object.olderFormat() : object.formatOne();
      const call =
        path === TEST_PATHS.forget
          ? object.forget()
          : path === TEST_PATHS.evict
            ? object.evict()
            : rewriteTables().then(() => objectOf(url, env).evict());
      // The call fails by design, with the reason it gave: the object it runs in is aborted.
      await call.catch((error: unknown) => {
        if (!String(error).includes(FORGET_REASON)) throw error;
      });
      return new Response(null, { status: 204 });
    }
    if (path === TEST_PATHS.crashAfterNextWrite) {
      await objectOf(url, env).crashAfterNextWrite();
      return new Response(null, { status: 204 });
    }
    if (path === TEST_PATHS.holdListCreations) {
      creationsWaiting ??= [];
      return new Response(null, { status: 204 });
    }
    if (path === TEST_PATHS.releaseListCreations) {
      for (const release of creationsWaiting?.splice(0) ?? []) release();
      creationsWaiting = undefined;
      return new Response(null, { status: 204 });
    }
    if (path === TEST_PATHS.listCreationsWaiting) {
      return Response.json(creationsWaiting?.length ?? 0);
    }
    if (path === TEST_PATHS.streamStats) {
      return Response.json(await objectOf(url, env).streamStats());
    }
    if (path === TEST_PATHS.objectState) {
      return Response.json(await objectOf(url, env).objectState());
    }
    if (path === TEST_PATHS.objectId) {
      return Response.json(await objectOf(url, env).objectId());
    }
    if (path === TEST_PATHS.seed) {
      const { count, title, list } = Object.fromEntries(url.searchParams);
      await objectOf(url, env).seed(Number(count), title ?? '', list);
      return new Response(null, { status: 204 });
    }
    if (path === TEST_PATHS.objectsAddressed) {
      const count = objectsAddressed;
      objectsAddressed = 0;
      return Response.json(count);
    }
    const namespace = env.TODO_LIST as unknown as TestNamespace;
    // The isolate keeps the bindings of its first request: each call must look at the test's state.
    const listCreations = holding(env.LIST_CREATIONS!);
    return worker.fetch(request, {
      ...env,
      TODO_LIST: counting(namespace),
      LIST_CREATIONS: listCreations,
    } as Env);
  },
} satisfies ExportedHandler<Env>;
