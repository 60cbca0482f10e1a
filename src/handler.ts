import { Router, type IRequest, type RouterType } from 'itty-router';
import type { Host } from './host.ts';
import { isApiPath } from './http/cors.ts';
import { HttpProblem } from './http/problem.ts';
import { Responses } from './http/responses.ts';
import { requestIdOf } from './http/request-id.ts';
import { routeTable } from './http/route-table.ts';
import { pathOf } from './http/url-path.ts';

/**
 * Answers `request`. A host that logs each request's id decides it first, with `requestIdOf`,
 * and hands it in; otherwise the handler decides it.
 */
export type Handler = (request: Request, requestId?: string) => Promise<Response>;

/** The router of the routes: each route is handed the request and the makers of its answers. */
export type Routes = RouterType<IRequest, [Responses]>;

/**
 * A router of the routes `addRoutes` adds, matched by a `routeTable` of them, as a handler that
 * never rejects (a URL no parser accepts is the client's mistake, answered 400): an `HttpProblem`
 * thrown anywhere is answered as problem+json, anything else is reported to the host and
 * answered with a generic 500. Every answer carries the request's id (`X-Request-Id`), and a
 * problem names it as its `instance`, so a user can quote it and it can be found in the log:
 * each request's `Responses` put it in every answer they make.
 */
export function createHandler(host: Host, addRoutes: (router: Routes) => void): Handler {
  const answerError = (error: unknown, request: Request, responses: Responses): Response => {
    const api = isApiPath(pathOf(request.url));
    if (error instanceof HttpProblem) return responses.problem(error, api);
    host.reportError(error, request, responses.requestId);
    const failure = new HttpProblem(500, 'The server could not answer this request. Try again.');
    return responses.problem(failure, api);
  };

  const router: Routes = Router<IRequest, [Responses]>();
  addRoutes(router);
  const route = routeTable(router.routes);
  const nowhere = () => new HttpProblem(404, 'Nothing is at this path.');

  return async (request, requestId = requestIdOf(request)) => {
    const responses = new Responses(host.Response, requestId);
    let response: Response;
    try {
      response =
        ((await route(request as IRequest, responses)) as Response | undefined) ??
        answerError(nowhere(), request, responses);
    } catch (error) {
      response = answerError(error, request, responses);
    }
    // HEAD is routed like GET; its body is dropped here, errors included.
    if (request.method === 'HEAD') response = await responses.headOf(response);
    return response;
  };
}
