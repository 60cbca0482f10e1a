import type { IRequest } from 'itty-router';
import type { Routes } from '../handler.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';

const HEALTHY = JSON.stringify({ status: 'ok' });

/**
 * `GET /healthz` for load balancers and container platforms: 200 while the service takes
 * requests, 503 once `isDraining` says it is going away, so traffic moves elsewhere first.
 * It says nothing about the list or the configuration: the route is public.
 */
export function addHealthRoute(router: Routes, isDraining: () => boolean): void {
  const health = (_request: IRequest, responses: Responses) => {
    if (isDraining()) {
      throw new HttpProblem(
        503,
        'The service is shutting down; send requests to another instance.',
      );
    }
    return responses.json(200, HEALTHY);
  };
  router
    .get('/healthz', health)
    .head('/healthz', health)
    .all('/healthz', methodNotAllowed('GET, HEAD'));
}
