import { Router, type IRequest, type RouterType } from 'itty-router';
import type { Host } from './host.ts';
import { isApiPath } from './http/cors.ts';
import { HttpProblem } from './http/problem.ts';
import { Responses } from './http/responses.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.ts';
import { pathOf } from './http/routing.ts';

export type Handler = (request: Request) => Promise<Response>;

/**
 * A router of the routes `addRoutes` adds, as a handler that never rejects: an `HttpProblem`
 * thrown anywhere is answered as problem+json, anything else is reported to the host and
 * answered with a generic 500. Every answer carries the request's id (`X-Request-Id`), and a
 * problem names it as its `instance`, so a user can quote it and it can be found in the log.
 */
export function createHandler(
  host: Host,
  addRoutes: (router: RouterType, responses: Responses) => void,
): Handler {
  const responses = new Responses(host.Response);

  const answerError = (error: unknown, request: Request, requestId: string): Response => {
    const api = isApiPath(pathOf(request.url));
    if (error instanceof HttpProblem) return responses.problem(error, api, requestId);
    host.reportError(error, request, requestId);
    const failure = new HttpProblem(500, 'The server could not answer this request. Try again.');
    return responses.problem(failure, api, requestId);
  };

  // HEAD is routed like GET; its body is dropped here, errors included.
  const dropBodyOfHead = (response: Response, request: IRequest) =>
    request.method === 'HEAD' ? responses.headOf(response) : response;

  const router = Router({ catch: answerError, finally: [dropBodyOfHead] });
  addRoutes(router, responses);

  return async (request) => {
    const requestId = requestIdOf(request);
    let response: Response;
    try {
      response = await router.fetch(request, requestId);
    } catch (error) {
      // itty parses the URL before its own error handling, so a URL no parser accepts (a
      // Host header such as "a b" makes one) lands here; checked only now, as it is rare.
      const badUrl = !URL.canParse(request.url);
      response = answerError(
        badUrl ? new HttpProblem(400, 'The request URL or its Host header is not valid.') : error,
        request,
        requestId,
      );
    }
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  };
}
