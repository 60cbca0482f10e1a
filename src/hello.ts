import type { IRequest, RouterType } from 'itty-router';
import { HttpProblem } from './http/problem.ts';
import type { Responses } from './http/responses.ts';
import { methodNotAllowed } from './http/routing.ts';

const MAX_NAME_LENGTH = 100;

/** `GET /hello?name=Ada` greets by name; CONTRACT.md, Other routes. */
export function addHelloRoute(router: RouterType, responses: Responses): void {
  const hello = (request: IRequest) => {
    const name = firstValue(request.query.name)?.trim() ?? '';
    const length = Array.from(name).length;
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

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
