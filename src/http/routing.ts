import { HttpProblem } from './problem.ts';

/** A route's answer to a method it does not serve: 405 with the methods it does. */
export function methodNotAllowed(allow: string) {
  return (request: Request): never => {
    throw new HttpProblem(405, `${request.method} is not allowed here; use ${allow}.`, {
      headers: { allow },
    });
  };
}

/**
 * The path of a request URL without its query, found without parsing, so it works even for
 * a URL that `new URL` refuses, and never logs what a query may hold.
 */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}
