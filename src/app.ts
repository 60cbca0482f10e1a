import type { RouterType } from 'itty-router';
import { DEFAULT_APP_CONFIG, type AppConfig } from './config.ts';
import { createHandler, type Handler } from './handler.ts';
import { addHealthRoute } from './health.ts';
import { addHelloRoute } from './hello.ts';
import { WEB_HOST, type Host } from './host.ts';
import { HttpProblem } from './http/problem.ts';
import type { Responses } from './http/responses.ts';
import { addStaticRoutes, type AssetSource } from './http/static-files.ts';
import { EventStreams, type EventStreamStats } from './live/event-streams.ts';
import { addEventRoutes } from './live/routes.ts';
import { addOpenApiRoute } from './openapi/route.ts';
import { addTodoRoutes } from './todos/routes.ts';
import { MemoryTodoStore, type TodoStore } from './todos/store.ts';

export interface AppOptions {
  readonly config?: AppConfig;
  readonly store?: TodoStore;
  /** What the server offers; a part left out takes the web-standard way (`WEB_HOST`). */
  readonly host?: Partial<Host>;
}

export interface App {
  /** Answers every request; it never rejects. */
  readonly fetch: Handler;
  readonly store: TodoStore;
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
  const store = options.store ?? new MemoryTodoStore({ reportError: host.reportError });
  const events = new EventStreams(store, config.sse, host);
  let draining = false;
  const fetch = createHandler(host, (router, responses) => {
    addTodoRoutes(router, {
      store,
      limits: config.limits,
      responses,
      contentLengthIsExact: host.contentLengthIsExact,
    });
    addEventRoutes(router, events, responses);
    addOpenApiRoute(router, responses, config);
    addSiteRoutes(router, responses, host.assets, () => draining);
  });
  const drain = () => {
    draining = true;
  };
  const close = () => {
    drain();
    events.close();
  };
  return { fetch, store, events, drain, close };
}

/**
 * What the service answers without its list: `/hello`, `/healthz`, the files of `public/`, and
 * 404 for any other path under `/api/`. The worker serves these itself and sends the API to
 * the list; it never drains, as workerd moves traffic on its own.
 */
export function createSite(host: Partial<Host>): Handler {
  const complete: Host = { ...WEB_HOST, ...host };
  return createHandler(complete, (router, responses) =>
    addSiteRoutes(router, responses, complete.assets, () => false),
  );
}

function addSiteRoutes(
  router: RouterType,
  responses: Responses,
  assets: AssetSource | undefined,
  isDraining: () => boolean,
): void {
  addHelloRoute(router, responses);
  addHealthRoute(router, responses, isDraining);
  router.all('/api/*', () => {
    throw new HttpProblem(404, 'There is no such API route; the to-dos are at /api/todos.');
  });
  addStaticRoutes(router, assets, responses);
}
