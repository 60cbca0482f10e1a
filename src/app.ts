import { DEFAULT_APP_CONFIG, type AppConfig } from './config.ts';
import { createHandler, type Handler } from './handler.ts';
import { addHealthRoute } from './health/routes.ts';
import { addHelloRoute } from './hello/routes.ts';
import { WEB_HOST, type Host } from './host.ts';
import { HttpProblem } from './http/problem.ts';
import { addStaticRoutes } from './http/static-files.ts';
import { StreamTally, type EventStreamStats } from './live/stream-tally.ts';
import { addEventRoutes } from './live/routes.ts';
import { listBases } from './lists/list-bases.ts';
import { LIST_PAGE } from './lists/list-paths.ts';
import type { ListDirectory, OpenListDirectory } from './lists/list-directory.ts';
import { localLists } from './lists/local-lists.ts';
import { addListRoutes } from './lists/routes.ts';
import { addOpenApiRoute } from './openapi/route.ts';
import { addTodoRoutes } from './todos/routes.ts';
import type { TodoStore } from './todos/store.ts';

export interface AppOptions {
  readonly config?: AppConfig;
  /**
   * The lists the handler serves; by default all of them in this process's memory
   * (`localLists()`), with `store` as the default list's store when given.
   */
  readonly lists?: OpenListDirectory;
  readonly store?: TodoStore;
  /** What the server offers; a part left out takes the web-standard way (`WEB_HOST`). */
  readonly host?: Partial<Host>;
}

export interface App {
  /** Answers every request; it never rejects. */
  readonly fetch: Handler;
  readonly lists: ListDirectory;
  /** The open event streams of every list, together, those of deleted lists until they end. */
  readonly events: EventStreamStats;
  /** The host is going away: from now on `/healthz` answers 503; everything else still works. */
  drain(): void;
  /** Ends every open event stream and refuses new ones; the host is shutting down. */
  close(): void;
}

/** The whole service as one web-standard `fetch(Request)` handler, for any host. */
export function createApp(options: AppOptions = {}): App {
  const config = options.config ?? DEFAULT_APP_CONFIG;
  const host: Host = { ...WEB_HOST, ...options.host };
  const openLists = options.lists ?? localLists({ defaultStore: options.store });
  const tally = new StreamTally();
  const lists = openLists({ config, host, tally });
  let draining = false;
  const fetch = createHandler(host, (router) => {
    const bases = listBases(lists);
    const body = { limits: config.limits, contentLengthIsExact: host.contentLengthIsExact };
    addTodoRoutes(router, { bases, ...body });
    addEventRoutes(router, bases);
    addListRoutes(router, { lists, ...body });
    addOpenApiRoute(router, config);
    addHelloRoute(router);
    addHealthRoute(router, () => draining);
    router.all('/api/*', () => {
      throw new HttpProblem(404, 'There is no such API route; the to-dos are at /api/todos.');
    });
    addStaticRoutes(router, host.assets, {
      [LIST_PAGE]: 'index.html',
      // At the root, so that the page's service worker may control every page of the origin.
      '/service-worker.js': 'build/page/service-worker.js',
    });
  });
  const drain = () => {
    draining = true;
  };
  const close = () => {
    drain();
    for (const list of lists.held()) list.close();
  };
  return { fetch, lists, events: tally, drain, close };
}
