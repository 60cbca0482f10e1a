import { HttpProblem } from './problem.ts';

/** A route's answer to a method it does not serve: 405 with the methods it does. */
export function methodNotAllowed(allow: string) {
  return (request: Request): never => {
    throw new HttpProblem(405, `${request.method} is not allowed here; use ${allow}.`, {
      headers: { allow },
    });
  };
}
