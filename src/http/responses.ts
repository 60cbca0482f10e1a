import type { HttpProblem } from './problem.ts';

// CORS headers are set where each response is made: itty-router's `corsify` would copy every
// answer into a new response, on the hot path.
const ALLOW_ORIGIN = '*';
const EXPOSE_HEADERS = 'Location, ETag';

const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

type HeaderRecord = Readonly<Record<string, string>>;

// With the type `about:blank`, RFC 9457 wants the status phrase as the title.
const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** A route's answer to a CORS preflight (docs/api.md, CORS): 204 with what it allows. */
export function preflight(allowMethods: string, allowHeaders = 'Content-Type') {
  const headers = {
    'access-control-allow-methods': allowMethods,
    'access-control-allow-headers': allowHeaders,
    'access-control-max-age': '86400',
  };
  return (_request: unknown, responses: Responses): Response => responses.apiEmpty(204, headers);
}

export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * Makes every response to one request, its headers one plain object with the request's id from
 * the start: the Node adapter writes that to the socket as it is, where a header set later costs
 * a copy of all. `/api/` headers are one literal, `extra` added key by key: spreading objects (two
 * sharing keys above all) made V8 build them the slow way (4.5 µs for a preflight's, vs 0.05).
 */
export class Responses {
  constructor(
    private readonly ResponseImpl: typeof Response,
    readonly requestId: string,
  ) {}

  /** A JSON answer under `/api/`, `body` already serialised (and perhaps encoded). */
  apiJson(status: number, body: string | Uint8Array, extra?: HeaderRecord): Response {
    return new this.ResponseImpl(body as BodyInit, {
      status,
      headers: this.#api(JSON_TYPE, extra),
    });
  }

  apiEmpty(status: number, extra?: HeaderRecord): Response {
    return new this.ResponseImpl(null, { status, headers: this.#api(undefined, extra) });
  }

  /** The problem's `instance` is the request's id, so a user can quote it. */
  problem({ status, detail, extras }: HttpProblem, api: boolean): Response {
    const extra = extras.headers;
    const headers = api ? this.#api(PROBLEM_TYPE, extra) : this.#outsideApi(PROBLEM_TYPE, extra);
    const title = STATUS_TITLES[status] ?? 'Error';
    const instance = this.requestId;
    const body: Record<string, unknown> = { type: 'about:blank', title, status, detail, instance };
    if (extras.errors) body.errors = extras.errors;
    return new this.ResponseImpl(JSON.stringify(body), { status, headers });
  }

  json(status: number, body: string): Response {
    return new this.ResponseImpl(body, { status, headers: this.#outsideApi(JSON_TYPE) });
  }

  text(status: number, body: string): Response {
    return new this.ResponseImpl(body, { status, headers: this.#outsideApi(TEXT_TYPE) });
  }

  /** The open event stream, which proxies must pass on unbuffered; its channel makes the body. */
  eventStream(channel: { respond(init: ResponseInit): Response }): Response {
    return channel.respond({
      status: 200,
      headers: {
        'x-request-id': this.requestId,
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        'access-control-allow-origin': ALLOW_ORIGIN,
        'access-control-expose-headers': EXPOSE_HEADERS,
      },
    });
  }

  /** A file's bytes, with its `contentType` after `headers`. */
  bytes(body: Uint8Array, headers: HeaderRecord, contentType: string): Response {
    return new this.ResponseImpl(body as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: { 'x-request-id': this.requestId, ...headers, 'content-type': contentType },
    });
  }

  /** The answer to HEAD: the GET answer's status and headers, its length, and no body. */
  async headOf(response: Response): Promise<Response> {
    if (response.body === null) return response;
    const length = (await response.arrayBuffer()).byteLength;
    const headers = { ...Object.fromEntries(response.headers), 'content-length': String(length) };
    return new this.ResponseImpl(null, { status: response.status, headers });
  }

  #api(contentType: string | undefined, extra?: HeaderRecord): Record<string, string> {
    const headers: Record<string, string> =
      contentType === undefined
        ? {
            'x-request-id': this.requestId,
            'access-control-allow-origin': ALLOW_ORIGIN,
            'access-control-expose-headers': EXPOSE_HEADERS,
            'cache-control': 'no-store',
          }
        : {
            'x-request-id': this.requestId,
            'content-type': contentType,
            'access-control-allow-origin': ALLOW_ORIGIN,
            'access-control-expose-headers': EXPOSE_HEADERS,
            'cache-control': 'no-store',
          };
    if (extra !== undefined) for (const name in extra) headers[name] = extra[name]!;
    return headers;
  }

  /** Neither kept nor sniffed: a greeting or a health check is made fresh for each request. */
  #outsideApi(contentType: string, extra?: HeaderRecord): Record<string, string> {
    const headers: Record<string, string> = {
      'x-request-id': this.requestId,
      'content-type': contentType,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    };
    if (extra !== undefined) for (const name in extra) headers[name] = extra[name]!;
    return headers;
  }
}
