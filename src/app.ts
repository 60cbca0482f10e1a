import { Router, type IRequest } from 'itty-router';
import { addHelloRoute } from './hello.ts';
import { DEFAULT_APP_CONFIG, type AppConfig } from './config.ts';
import { isApiPath } from './http/cors.ts';
import { HttpProblem } from './http/problem.ts';
import { openWebEventChannel, type OpenEventChannel } from './live/event-channel.ts';
import { EventStreams, type EventStreamStats } from './live/event-streams.ts';
import { addEventRoutes } from './live/routes.ts';
import { Responses, type ResponseClass } from './http/responses.ts';
import { pathOf } from './http/routing.ts';
import { addStaticRoutes, type AssetSource } from './http/static-files.ts';
import { MemoryTodoStore, type TodoStore } from './todos/store.ts';
import { addTodoRoutes } from './todos/routes.ts';

export type ErrorReporter = (error: unknown, request?: Request) => void;

export interface AppOptions {
  readonly config?: AppConfig;
  readonly store?: TodoStore;
  /** The files of `public/`; without them every page path is 404. */
  readonly assets?: AssetSource;
  /** The `Response` class to build with; the global one unless the host has a faster one. */
  readonly Response?: ResponseClass;
  /**
   * Whether the host delivers exactly Content-Length bytes of a body that declares one, as an
   * HTTP/1.1 server's parser does, so such a body may be read whole. Off by default: a
   * `Request` built in code may declare any length.
   */
  readonly contentLengthIsExact?: boolean;
  /**
   * How each event stream is made; a web `TransformStream` unless the host has a cheaper way
   * to its sockets.
   */
  readonly openEventChannel?: OpenEventChannel;
  /** Where unexpected exceptions go; the client only ever sees a generic 500. */
  readonly reportError?: ErrorReporter;
}

export interface App {
  /** Answers every request; it never rejects. */
  readonly fetch: (request: Request) => Promise<Response>;
  readonly store: TodoStore;
  readonly events: EventStreamStats;
  /** Ends every open event stream and refuses new ones; the host is shutting down. */
  close(): void;
}

/** The whole service as one web-standard `fetch(Request)` handler, for any host. */
export function createApp(options: AppOptions = {}): App {
  const config = options.config ?? DEFAULT_APP_CONFIG;
  const reportError: ErrorReporter = options.reportError ?? ((error) => console.error(error));
  const store =
    options.store ?? new MemoryTodoStore({ reportError, historyLimit: config.sse.replayEvents });
  const events = new EventStreams(
    store,
    config.sse,
    options.openEventChannel ?? openWebEventChannel,
  );
  const responses = new Responses(options.Response ?? Response);

  const answerError = (error: unknown, request: Request): Response => {
    const api = isApiPath(pathOf(request.url));
    if (error instanceof HttpProblem) return responses.problem(error, api);
    reportError(error, request);
    const failure = new HttpProblem(500, 'The server could not answer this request. Try again.');
    return responses.problem(failure, api);
  };

  // HEAD is routed like GET; its body is dropped here, errors included.
  const dropBodyOfHead = (response: Response, request: IRequest) =>
    request.method === 'HEAD' ? responses.headOf(response) : response;

  const router = Router({ catch: answerError, finally: [dropBodyOfHead] });
  addTodoRoutes(router, {
    store,
    limits: config.limits,
    responses,
    contentLengthIsExact: options.contentLengthIsExact ?? false,
  });
  addEventRoutes(router, events, responses);
  addHelloRoute(router, responses);
  router.all('/api/*', () => {
    throw new HttpProblem(404, 'There is no such API route; the to-dos are at /api/todos.');
  });
  addStaticRoutes(router, options.assets, responses);

  const fetch = async (request: Request): Promise<Response> => {
    try {
      return await router.fetch(request);
    } catch (error) {
      // itty parses the URL before its own error handling, so a URL no parser accepts (a
      // Host header such as "a b" makes one) lands here; checked only now, as it is rare.
      const badUrl = !URL.canParse(request.url);
      return answerError(
        badUrl ? new HttpProblem(400, 'The request URL or its Host header is not valid.') : error,
        request,
      );
    }
  };

  return { fetch, store, events, close: () => events.close() };
}
