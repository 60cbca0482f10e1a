import { Router, type IRequest, type RouteEntry, type RouterType } from 'itty-router';
import { HttpProblem, serverFailure } from './problem.ts';
import { requestIdOf } from './request.ts';
import { isApiPath, Responses } from './responses.ts';

export type Routes = RouterType<IRequest, [Responses]>;

/** Answers `request`; a host that logs each request's id decides it first, with `requestIdOf`. */
export type Handler = (request: Request, requestId?: string) => Promise<Response>;

/** `requestId` is the id the client was given for the request that failed, if any. */
export type ErrorReporter = (error: unknown, request?: Request, requestId?: string) => void;

/** A handler that never rejects: it answers a thrown `HttpProblem`, and reports anything else. */
export function createHandler(
  ResponseImpl: typeof Response,
  reportError: ErrorReporter,
  addRoutes: (router: Routes) => void,
): Handler {
  const answerError = (error: unknown, request: Request, responses: Responses): Response => {
    const api = isApiPath(pathOf(request.url));
    if (error instanceof HttpProblem) return responses.problem(error, api);
    reportError(error, request, responses.requestId);
    return responses.problem(serverFailure(), api);
  };

  const router: Routes = Router<IRequest, [Responses]>();
  addRoutes(router);
  const route = routeTable(router.routes);

  return async (request, requestId = requestIdOf(request)) => {
    const responses = new Responses(ResponseImpl, requestId);
    let response: Response;
    try {
      response =
        ((await route(request as IRequest, responses)) as Response | undefined) ??
        answerError(new HttpProblem(404, 'Nothing is at this path.'), request, responses);
    } catch (error) {
      response = answerError(error, request, responses);
    }
    // HEAD is routed like GET; its body is dropped here, errors included.
    if (request.method === 'HEAD') response = await responses.headOf(response);
    return response;
  };
}

/** Paths `new URL` keeps as they are: no dot segments, escapes, or characters it would encode. */
const PLAIN_PATH = /^\/[\w\-~/]*$/;

/** The router's `routes` matched as its `fetch` matches them, but faster (docs/dependencies.md). */
export function routeTable(entries: readonly RouteEntry<IRequest, [Responses]>[]) {
  const routesFor = (method: string) =>
    entries
      .filter(([other]) => other === method || other === 'ALL')
      .map(([, pattern, handlers, path]) => ({ pattern, handlers, path }));
  const anyMethod = routesFor('ALL');
  const byMethod = new Map(entries.map(([method]) => [method, routesFor(method)]));

  // The path of a URL as `new URL(url).pathname` gives it. Once a URL whose text before the path
  // was exactly its origin gave its path as written, a plain path after that same origin (a client
  // sends the same Host again and again) is taken as written. A Host such as "a b" is a 400.
  let checkedOrigin = '';
  const pathOfUrl = (url: string): string => {
    const start = pathStart(url);
    const written = pathAt(url, start);
    const plain = PLAIN_PATH.test(written);
    if (plain && start === checkedOrigin.length && url.startsWith(checkedOrigin)) return written;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new HttpProblem(400, 'The request URL or its Host header is not valid.');
    }
    // After a Host holding a "?" or "#", or a user, the text before the path is not the origin.
    const origin = url.slice(0, start);
    if (plain && parsed.pathname === written && parsed.origin === origin) checkedOrigin = origin;
    return parsed.pathname;
  };

  return async (request: IRequest, responses: Responses): Promise<unknown> => {
    const path = pathOfUrl(request.url);
    const routes = byMethod.get(request.method) ?? anyMethod;
    for (let index = 0; index < routes.length; index += 1) {
      const { pattern, handlers, path: route } = routes[index]!;
      const match = pattern.exec(path);
      if (match === null) continue;
      request.params = match.groups ?? {};
      request.route = route!;
      for (const handler of handlers) {
        const response = await handler(request, responses);
        if (response != null) return response;
      }
    }
    return undefined;
  };
}

/** Where the path of an absolute URL starts: its first "/" after the "//"; -1 when it has none. */
function pathStart(url: string): number {
  return url.indexOf('/', url.indexOf('//') + 2);
}

/** The path from `start` to the query; "/" when there is none. */
function pathAt(url: string, start: number): string {
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/** The path, not the query (a log must not hold it), found even in a URL `new URL` refuses. */
export function pathOf(url: string): string {
  return pathAt(url, pathStart(url));
}

/** Each segment after a "lists" segment: where the routes take a list's id, of either kind. */
const LIST_ID_SEGMENT = /(?<=\/lists\/)[^/]+/g;

/**
 * `path` as a log may hold it: whoever has a list's id can read and change the list, so each id
 * is written as `tagOf` it. Dot segments and backslashes are resolved first, as the router
 * resolves them ("/x/../lists/{id}" names the list too); a path without "lists" costs one search.
 */
export function loggedPath(path: string, tagOf: (listId: string) => string): string {
  if (!path.includes('lists')) return path;
  const routed = PLAIN_PATH.test(path) ? path : new URL(`http://any.invalid${path}`).pathname;
  return routed.replace(LIST_ID_SEGMENT, tagOf);
}
