import { addItemRoutes } from './api/items.ts';
import { addListRoutes } from './api/lists.ts';
import { addSiteRoutes, addStaticRoutes, type AssetSource } from './api/site.ts';
import { DEFAULT_APP_CONFIG, type AppConfig } from './config.ts';
import {
  fixedWindowLimiter,
  OpenStreamsPerClient,
  type RateLimiter,
} from './http/client-limits.ts';
import { HttpProblem } from './http/problem.ts';
import { createHandler, type ErrorReporter, type Handler } from './http/router.ts';
import { StreamTally, webEventChannel, type StreamHost } from './live/event-channel.ts';
import type { ListDirectory, OpenListDirectory } from './lists/live-list.ts';
import { newViewSecret, ViewIds } from './lists/list-id.ts';
import { localLists } from './lists/local-lists.ts';

/** What the handler takes from the server it runs in (docs/layout.md has what each gives). */
interface Host extends StreamHost {
  /** The files of `public/`; without them every page path is 404. */
  readonly assets?: AssetSource;
  readonly reportError: ErrorReporter;
  readonly Response: typeof Response;
  readonly contentLengthIsExact: boolean;
  /** The address the per-client limits count; where it gives none, the request is not counted. */
  readonly clientAddressOf: (request: Request) => string | undefined;
  readonly listCreations?: RateLimiter;
}

/** The documented default of `limits.maxLists`, where the handler holds every list itself. */
export const DEFAULT_MAX_LISTS = 10000;

export interface AppOptions {
  readonly config?: AppConfig;
  readonly lists?: OpenListDirectory;
  /** What the server offers; a part left out takes the web-standard way. */
  readonly host?: Partial<Host>;
  /** How view ids are derived; by default under a key of this process's, lost with it. */
  readonly viewIds?: ViewIds;
  readonly listRoutesOnly?: boolean;
}

export interface App {
  /** Answers every request; it never rejects. */
  readonly fetch: Handler;
  readonly lists: ListDirectory;
  /** The open event streams of every list, together, those of deleted lists until they end. */
  readonly events: Readonly<StreamTally>;
  /** The host is going away: from now on `/healthz` answers 503; everything else still works. */
  drain(): void;
  /** Ends every open event stream and refuses new ones: the host is shutting down. */
  close(): void;
}

/** The whole service as one web-standard `fetch(Request)` handler, for any host. */
export function createApp(options: AppOptions = {}): App {
  const config = options.config ?? DEFAULT_APP_CONFIG;
  // A `Request` made in code may declare any Content-Length.
  const host: Host = {
    reportError: (error) => console.error(error),
    Response,
    contentLengthIsExact: false,
    openEventChannel: (queueBytes) => webEventChannel(queueBytes),
    writesHeartbeats: true,
    clientAddressOf: () => undefined,
    ...options.host,
  };
  const tally = new StreamTally();
  const openLists = options.lists ?? localLists({ maxLists: DEFAULT_MAX_LISTS });
  const viewIds = options.viewIds ?? new ViewIds(newViewSecret());
  const lists = openLists({ config, host, tally, viewIds });
  let draining = false;
  const fetch = createHandler(host.Response, host.reportError, (router) => {
    const deps = {
      lists,
      viewIds,
      limits: config.limits,
      contentLengthIsExact: host.contentLengthIsExact,
      clientAddressOf: host.clientAddressOf,
      listCreations: host.listCreations ?? fixedWindowLimiter(config.limits.listsPerMinute),
      streamsPerClient: new OpenStreamsPerClient(config.sse.maxClientsPerAddress),
    };
    addItemRoutes(router, deps);
    addListRoutes(router, deps);
    if (!options.listRoutesOnly) {
      addSiteRoutes(router, { config, assets: host.assets, isDraining: () => draining });
    }
    router.all('/api/*', () => {
      throw new HttpProblem(404, 'There is no such API route; the to-dos are at /api/todos.');
    });
    if (options.listRoutesOnly) return;
    addStaticRoutes(router, host.assets);
  });
  const drain = () => {
    draining = true;
  };
  const close = () => {
    drain();
    for (const list of lists.inMemory()) list.events.close();
  };
  return { fetch, lists, events: tally, drain, close };
}
