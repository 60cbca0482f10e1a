import type { IRequest, RouteEntry } from 'itty-router';
import type { Responses } from './responses.ts';
import { HttpProblem } from './problem.ts';
import { pathAt, pathStart } from './url-path.ts';

type Handler = (request: IRequest, responses: Responses) => unknown;
interface Route {
  readonly pattern: RegExp;
  readonly handlers: readonly Handler[];
  readonly path: string | undefined;
}

/** Paths `new URL` keeps as they are: no dot segments, escapes, or characters it would encode. */
const PLAIN_PATH = /^\/[\w\-~/]*$/;

/**
 * The router's routes (its public `routes`), matched as its `fetch` matches them: the first
 * route whose method (or `all`) and path match, its handlers in turn until one answers, then the
 * next route. Unlike `fetch`, it does not parse the URL and its query for every request: the path
 * is cut out of the URL, which is parsed only for an origin not met before or a path not written
 * plainly (dot segments, escapes and the like, which `new URL` may rewrite), and only the routes
 * of the request's method are tried (docs/dependencies.md has what that saves).
 * test/route-table.test.ts holds it to `fetch`'s choices. No route reads `request.query`, so it is
 * not filled in.
 */
export function routeTable(entries: readonly RouteEntry<IRequest, [Responses]>[]) {
  const routesFor = (method: string): Route[] =>
    entries
      .filter(([other]) => other === method || other === 'ALL')
      .map(([, pattern, handlers, path]) => ({ pattern, handlers: handlers as Handler[], path }));
  const anyMethod = routesFor('ALL');
  const byMethod = new Map(entries.map(([method]) => [method, routesFor(method)]));
  const pathOf = pathFinder();

  return async (request: IRequest, responses: Responses): Promise<unknown> => {
    const path = pathOf(request.url);
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

/**
 * The path of a URL as `new URL(url).pathname` gives it. A client sends the same Host header
 * over and over: once a URL with it was parsed, its text before the path was exactly the URL's
 * origin, and its path came out as written, a plain path after that same origin is taken as
 * written. Anything else is parsed, and a URL no parser accepts (a Host header such as "a b"
 * makes one) is refused.
 */
function pathFinder() {
  let checkedOrigin = '';
  return (url: string): string => {
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
    // Only text that is the URL's own origin is kept: after a Host holding a "?" or "#", or a
    // user, the text that follows is not all path.
    const origin = url.slice(0, start);
    if (plain && parsed.pathname === written && parsed.origin === origin) checkedOrigin = origin;
    return parsed.pathname;
  };
}
