/** One problem with one field of a request body; `pointer` is a JSON Pointer into the body. */
export interface FieldError {
  readonly pointer: string;
  readonly detail: string;
}

const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/**
 * An answer that is an error. Thrown anywhere in the handler, it is turned into an
 * `application/problem+json` response (RFC 9457) in one place, the router's `catch`.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: readonly FieldError[],
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }

  get title(): string {
    return STATUS_TITLES[this.status] ?? 'Error';
  }

  toJSON(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      type: 'about:blank',
      title: this.title,
      status: this.status,
      detail: this.detail,
    };
    if (this.errors) body.errors = this.errors;
    return body;
  }
}

/** Escapes a key for use as one JSON Pointer segment (RFC 6901). */
export function pointerTo(key: string): string {
  return '/' + key.replaceAll('~', '~0').replaceAll('/', '~1');
}
