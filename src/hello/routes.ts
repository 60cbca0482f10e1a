import type { IRequest } from 'itty-router';
import type { Routes } from '../handler.ts';
import { countCodePoints } from '../http/code-points.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';

const MAX_NAME_LENGTH = 100;

/** `GET /hello?name=Ada` greets by name; docs/api.md, HTTP details. */
export function addHelloRoute(router: Routes): void {
  const hello = (request: IRequest, responses: Responses) => {
    // The URL, not a merged query, keeps an empty first value first; most URLs have no query.
    const name = request.url.includes('?')
      ? (new URL(request.url).searchParams.get('name')?.trim() ?? '')
      : '';
    const length = countCodePoints(name);
    if (length > MAX_NAME_LENGTH) {
      throw new HttpProblem(
        400,
        `name must be at most ${MAX_NAME_LENGTH} characters long; it has ${length}.`,
      );
    }
    return responses.text(200, `Hello, ${name || 'world'}!`);
  };

  router.get('/hello', hello).head('/hello', hello).all('/hello', methodNotAllowed('GET, HEAD'));
}
