import { ALLOW_ORIGIN, EXPOSE_HEADERS } from './cors.ts';
import type { HttpProblem } from './problem.ts';

/**
 * The `Response` class the handler builds with. A host may hand over its own: on Node,
 * @whatwg-node/server writes its own class straight to the socket, while the global one
 * has to be read back through a web stream.
 */
export type ResponseClass = typeof Response;

export const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

type HeaderRecord = Readonly<Record<string, string>>;

/**
 * The headers of every answer under `/api/`, then `extra`. Spelled out rather than spread from
 * a shared object: spreading two objects, and above all two that share keys, made V8 build
 * each set of headers the slow way (4.5 µs for a preflight's, against 0.05 µs).
 */
function apiHeaders(
  requestId: string,
  contentType: string | undefined,
  extra?: HeaderRecord,
): HeaderRecord {
  if (contentType === undefined) {
    return {
      'x-request-id': requestId,
      'access-control-allow-origin': ALLOW_ORIGIN,
      'access-control-expose-headers': EXPOSE_HEADERS,
      'cache-control': 'no-store',
      ...extra,
    };
  }
  return {
    'x-request-id': requestId,
    'content-type': contentType,
    'access-control-allow-origin': ALLOW_ORIGIN,
    'access-control-expose-headers': EXPOSE_HEADERS,
    'cache-control': 'no-store',
    ...extra,
  };
}

/**
 * Makes every response to one request, so headers are decided in one place, each answer
 * carrying the request's id (`X-Request-Id`) from the start: a header set on a response once
 * made costs the Node adapter a copy of them all, and its direct way of writing them. The name
 * is spelled out in each set of headers, as the others are, for the reason `apiHeaders` gives.
 */
export class Responses {
  readonly #ResponseImpl: ResponseClass;
  readonly requestId: string;

  constructor(ResponseImpl: ResponseClass, requestId: string) {
    this.#ResponseImpl = ResponseImpl;
    this.requestId = requestId;
  }

  /** A JSON answer under `/api/`, `body` already serialised (and perhaps encoded). */
  apiJson(status: number, body: string | Uint8Array, headers?: HeaderRecord): Response {
    return new this.#ResponseImpl(body as BodyInit, {
      status,
      headers: apiHeaders(this.requestId, JSON_TYPE, headers),
    });
  }

  /** A body-less answer under `/api/` (204, 304). */
  apiEmpty(status: number, headers?: HeaderRecord): Response {
    return new this.#ResponseImpl(null, {
      status,
      headers: apiHeaders(this.requestId, undefined, headers),
    });
  }

  /** The problem's `instance` is the request's id, so a user can quote it. */
  problem(problem: HttpProblem, api: boolean): Response {
    const headers = api
      ? apiHeaders(this.requestId, PROBLEM_TYPE, problem.extras.headers)
      : {
          'x-request-id': this.requestId,
          'content-type': PROBLEM_TYPE,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          ...problem.extras.headers,
        };
    return new this.#ResponseImpl(JSON.stringify(problem.toBody(this.requestId)), {
      status: problem.status,
      headers,
    });
  }

  /** A JSON answer outside `/api/`, `body` already serialised. */
  json(status: number, body: string): Response {
    return this.#outsideApi(status, body, JSON_TYPE);
  }

  text(status: number, body: string): Response {
    return this.#outsideApi(status, body, TEXT_TYPE);
  }

  /** Neither kept nor sniffed: a greeting or a health check is made fresh for each request. */
  #outsideApi(status: number, body: string, contentType: string): Response {
    return new this.#ResponseImpl(body, {
      status,
      headers: {
        'x-request-id': this.requestId,
        'content-type': contentType,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  }

  /**
   * The open event stream (docs/api.md, Live updates); proxies must pass it on unbuffered. The
   * stream's channel builds the response: its body is whatever the host's channel writes to.
   */
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
  bytes(status: number, body: Uint8Array, headers: HeaderRecord, contentType: string): Response {
    return new this.#ResponseImpl(body as Uint8Array<ArrayBuffer>, {
      status,
      headers: { 'x-request-id': this.requestId, ...headers, 'content-type': contentType },
    });
  }

  /** The answer to HEAD: the GET answer's status and headers, its length, and no body. */
  async headOf(response: Response): Promise<Response> {
    if (response.body === null) return response;
    const length = (await response.arrayBuffer()).byteLength;
    const headers = { ...Object.fromEntries(response.headers), 'content-length': String(length) };
    return new this.#ResponseImpl(null, { status: response.status, headers });
  }
}
