import { addItemRoutes } from './api/items.ts';
import { addListRoutes } from './api/lists.ts';
import { addSiteRoutes } from './api/site.ts';
import { addStaticRoutes, type AssetSource } from './api/static-files.ts';
import { DEFAULT_APP_CONFIG, type AppConfig } from './config.ts';
import { HttpProblem } from './http/problem.ts';
import { createHandler, type ErrorReporter, type Handler } from './http/router.ts';
import {
  openWebEventChannel,
  StreamTally,
  type EventStreamStats,
  type OpenEventChannel,
} from './live/event-channel.ts';
import type { ListDirectory, OpenListDirectory } from './lists/live-list.ts';
import { localLists } from './lists/local-lists.ts';
import { LIST_PAGE } from './model/resources.ts';

/**
 * What the handler takes from the server it runs in: the duties only a host can do (its files,
 * its error log), what it can tell of its connections, and the ways to its sockets that it may
 * offer in place of the web-standard ones. The Node host offers some; workerd needs none.
 */
interface Host {
  /** The files of `public/`; without them every page path is 404. */
  readonly assets?: AssetSource;
  /** Where unexpected exceptions go; the client only ever sees a generic 500. */
  readonly reportError: ErrorReporter;
  /**
   * The class every answer is built with. On Node, @whatwg-node/server writes its own class
   * straight to the socket, while the global one has to be read back through a web stream.
   */
  readonly Response: typeof Response;
  /**
   * Whether the host delivers exactly Content-Length bytes of a body that declares one, as an
   * HTTP/1.1 server's parser does, so such a body may be read whole. A `Request` built in code
   * may declare any length.
   */
  readonly contentLengthIsExact: boolean;
  /** How each event stream is made: a web `TransformStream`, or a Durable Object's socket. */
  readonly openEventChannel: OpenEventChannel;
  /**
   * Whether the handler writes the heartbeats of its event streams. On workerd the worker that
   * carries each stream to its client writes them instead, so that the list's object keeps no
   * timer and can hibernate between changes.
   */
  readonly writesHeartbeats: boolean;
  /**
   * Runs `task` once the answers now under way are written, so that a change is answered
   * before it is written to every open stream (Node: `setImmediate`). Without it, a change
   * reaches the streams before its answer leaves.
   */
  readonly afterAnswers?: (task: () => void) => void;
}

/** The web-standard way for every part: what a host that offers nothing gets. */
const WEB_HOST: Host = {
  reportError: (error) => console.error(error),
  Response,
  contentLengthIsExact: false,
  openEventChannel: openWebEventChannel,
  writesHeartbeats: true,
};

/** The documented default of `limits.maxLists`, where the handler holds every list itself. */
export const DEFAULT_MAX_LISTS = 10000;

export interface AppOptions {
  readonly config?: AppConfig;
  /** The lists the handler serves; by default all of them in this process's memory. */
  readonly lists?: OpenListDirectory;
  /** What the server offers; a part left out takes the web-standard way. */
  readonly host?: Partial<Host>;
  /** Only the routes of lists and their items, as a Durable Object that holds a list serves. */
  readonly listRoutesOnly?: boolean;
}

export interface App {
  /** Answers every request; it never rejects. */
  readonly fetch: Handler;
  readonly lists: ListDirectory;
  /** The open event streams of every list, together, those of deleted lists until they end. */
  readonly events: EventStreamStats;
  /** The host is going away: from now on `/healthz` answers 503; everything else still works. */
  drain(): void;
  /** Ends every open event stream and refuses new ones: the host is shutting down. */
  close(): void;
}

/** The whole service as one web-standard `fetch(Request)` handler, for any host. */
export function createApp(options: AppOptions = {}): App {
  const config = options.config ?? DEFAULT_APP_CONFIG;
  const host: Host = { ...WEB_HOST, ...options.host };
  const tally = new StreamTally();
  const openLists = options.lists ?? localLists({ maxLists: DEFAULT_MAX_LISTS });
  const lists = openLists({ config, host, tally });
  let draining = false;
  const fetch = createHandler(host.Response, host.reportError, (router) => {
    const deps = { lists, limits: config.limits, contentLengthIsExact: host.contentLengthIsExact };
    addItemRoutes(router, deps);
    addListRoutes(router, deps);
    if (!options.listRoutesOnly) {
      addSiteRoutes(router, { config, assets: host.assets, isDraining: () => draining });
    }
    router.all('/api/*', () => {
      throw new HttpProblem(404, 'There is no such API route; the to-dos are at /api/todos.');
    });
    if (options.listRoutesOnly) return;
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
    for (const list of lists.inMemory()) list.close();
  };
  return { fetch, lists, events: tally, drain, close };
}
