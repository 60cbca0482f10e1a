import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServerAdapter, Response as AdapterResponse } from '@whatwg-node/server';
import { createApp, type App } from '../../app.ts';
import { isApiPath } from '../../http/cors.ts';
import { HttpProblem } from '../../http/problem.ts';
import { Responses } from '../../http/responses.ts';
import { pathOf } from '../../http/routing.ts';
import type { TodoStore } from '../../todos/store.ts';
import { answerClientErrorsInOrder } from './client-errors.ts';
import { openNodeEventChannel } from './event-channel.ts';
import { fileAssets } from './file-assets.ts';
import type { Logger } from './logger.ts';
import type { NodeConfig } from './node-config.ts';
import { drain } from './shutdown.ts';

/** The project root, the same from `src/hosts/node` and from its build in `dist/hosts/node`. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PUBLIC_DIR = join(PROJECT_ROOT, 'public');
const HOST_FAILURE = new HttpProblem(500, 'The server could not answer this request. Try again.');

export interface RunningServer {
  readonly url: string;
  readonly app: App;
  readonly server: Server;
  /** Stops accepting, lets requests in flight finish within the shutdown timeout, then closes. */
  close(): Promise<void>;
}

/** Serves the handler on `node:http` through @whatwg-node/server. */
export async function startNodeServer(
  config: NodeConfig,
  logger: Logger,
  store?: TodoStore,
): Promise<RunningServer> {
  const app = createApp({
    config,
    store,
    assets: fileAssets(PUBLIC_DIR),
    // The adapter writes its own Response class straight to the socket.
    Response: AdapterResponse as typeof Response,
    // Node's parser ends a body at its Content-Length; what follows is the next request.
    contentLengthIsExact: true,
    openEventChannel: openNodeEventChannel,
    reportError: (error, request) =>
      logger.error('unexpected error', {
        ...(request && { method: request.method, path: pathOf(request.url) }),
        stack: error instanceof Error ? error.stack : String(error),
      }),
  });

  let draining = false;
  const answer = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const response = await app.fetch(request);
    // A refused body is left unread: closing the connection stops Node reading the rest.
    // While draining, closing after each answer lets keep-alive clients go elsewhere.
    if (draining || response.status === 413) response.headers.set('connection', 'close');
    logger.request(
      request.method,
      pathOf(request.url),
      response.status,
      performance.now() - started,
    );
    return response;
  };
  // The handler never rejects, but the host's code around it may; the adapter would then
  // answer with the error's stack as the body.
  const failures = new Responses(AdapterResponse as typeof Response);
  const answerSafely = (request: Request): Promise<Response> =>
    answer(request).catch((error: unknown) => {
      logger.error('unexpected error', {
        method: request.method,
        path: pathOf(request.url),
        stack: error instanceof Error ? error.stack : String(error),
      });
      return failures.problem(HOST_FAILURE, isApiPath(pathOf(request.url)));
    });
  // Node hands over all the requests pipelined on a connection at once and only orders their
  // answers. RFC 9112 (9.3.2) lets a server work on pipelined requests together only when all
  // are safe: a GET sent after a POST must see what the POST did. So a request waits until the
  // one before it on its connection has its answer.
  const lastOnConnection = new WeakMap<Socket, Promise<Response>>();
  const adapter = createServerAdapter<{ req: IncomingMessage }>((request, { req }) => {
    const before = lastOnConnection.get(req.socket);
    const answered = before ? before.then(() => answerSafely(request)) : answerSafely(request);
    lastOnConnection.set(req.socket, answered);
    return answered;
  });

  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxHeaderBytes } = config.server;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      maxHeaderSize: maxHeaderBytes,
      // Node checks these timeouts on this interval; a quarter keeps them within 25%.
      connectionsCheckingInterval: Math.min(30000, Math.max(100, Math.floor(headersTimeoutMs / 4))),
    },
    adapter,
  );
  server.keepAliveTimeout = keepAliveTimeoutMs;
  answerClientErrorsInOrder(server);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const close = () => {
    draining = true;
    // Open event streams would hold their connections until the timeout: end them first.
    app.close();
    return drain(server, config.server.shutdownTimeoutMs);
  };
  return { url, app, server, close };
}
