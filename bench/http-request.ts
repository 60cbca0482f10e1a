import { request, type Agent, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly ms: number;
}

export interface Ask {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A request that got no answer; `reset` when the server cut the connection. */
export class RequestFailed extends Error {
  override readonly name = 'RequestFailed';
  constructor(
    message: string,
    readonly reset: boolean,
  ) {
    super(message);
  }
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);
/** Whether the server cut the connection, rather than failed to answer or refused it. */
export const isReset = (error: NodeJS.ErrnoException) =>
  error.code !== undefined && RESET_CODES.has(error.code);
/** Far above any answer seen on a busy shared machine; only a hung request reaches it. */
const ANSWER_TIMEOUT_MS = 15_000;

/**
 * One request on `agent`'s keep-alive connections, read to the end. Plain node:http rather
 * than fetch: it costs the load generator less CPU, and a reset shows as its own error code.
 */
export function send(agent: Agent, port: number, ask: Ask): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string> = { ...ask.headers };
    if (ask.body !== undefined) headers['content-length'] = String(Buffer.byteLength(ask.body));
    const fail = (error: NodeJS.ErrnoException) => {
      reject(new RequestFailed(`${ask.method} ${ask.path}: ${error.message}`, isReset(error)));
    };
    const outgoing = request(
      { host: '127.0.0.1', port, method: ask.method, path: ask.path, agent, headers },
      (response) => {
        let body = '';
        // A connection cut mid-body fails the response, not the request.
        response.on('error', fail);
        response.setEncoding('utf8');
        response.on('data', (text: string) => (body += text));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            ms: performance.now() - started,
          }),
        );
      },
    );
    outgoing.setTimeout(ANSWER_TIMEOUT_MS, () =>
      outgoing.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)),
    );
    outgoing.on('error', fail);
    outgoing.end(ask.body);
  });
}
