/** One problem with one field of a request body; `pointer` is a JSON Pointer into the body. */
export interface FieldError {
  readonly pointer: string;
  readonly detail: string;
}

/** An error answer: thrown anywhere, the router answers it as problem+json (RFC 9457). */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extras: {
      readonly errors?: readonly FieldError[];
      /** Headers the answer needs, such as `Allow` on a 405. */
      readonly headers?: Readonly<Record<string, string>>;
    } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }
}

/** The answer to an unexpected error: generic, as its cause is for the log only. */
export function serverFailure(): HttpProblem {
  return new HttpProblem(500, 'The server could not answer this request. Try again.');
}

/** A route's answer to a method it does not serve: 405 with the methods it does. */
export function methodNotAllowed(allow: string) {
  return (request: Request): never => {
    throw new HttpProblem(405, `${request.method} is not allowed here; use ${allow}.`, {
      headers: { allow },
    });
  };
}
