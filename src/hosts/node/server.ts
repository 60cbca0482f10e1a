import { createServer, type IncomingMessage, type Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { createServerAdapter, Response as AdapterResponse } from '@whatwg-node/server';
import { createApp, type App } from '../../app.ts';
import type { ErrorReporter } from '../../host.ts';
import { REQUEST_ID_HEADER } from '../../http/request-id.ts';
import { pathOf } from '../../http/routing.ts';
import type { TodoStore } from '../../todos/store.ts';
import { answerClientErrorsInOrder } from './client-errors.ts';
import { fileAssets } from './file-assets.ts';
import { REQUEST_MESSAGE, type Logger, type RequestLine } from './logger.ts';
import type { NodeConfig } from './node-config.ts';
import { openNodeEventChannel } from './node-event-channel.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { drain } from './shutdown.ts';

const HEALTH_PATH = '/healthz';

export interface RunningServer {
  readonly url: string;
  readonly app: App;
  readonly server: Server;
  /**
   * Answers 503 on `/healthz` for the drain delay, then stops accepting, lets requests in
   * flight finish within the shutdown timeout, and closes.
   */
  close(): Promise<void>;
}

/** Serves the handler on `node:http` through @whatwg-node/server. */
export async function startNodeServer(
  config: NodeConfig,
  logger: Logger,
  store?: TodoStore,
): Promise<RunningServer> {
  const reportError: ErrorReporter = (error, request, reqId) => {
    try {
      logger.error(
        {
          err: error,
          reqId,
          ...(request && { method: request.method, path: pathOf(request.url) }),
        },
        'unexpected error',
      );
    } catch {
      // The log itself is broken: there is nowhere left to report to.
    }
  };
  const app = createApp({
    config,
    store,
    host: {
      assets: fileAssets(join(PROJECT_ROOT, 'public')),
      reportError,
      // The adapter writes its own Response class straight to the socket.
      Response: AdapterResponse as typeof Response,
      // Node's parser ends a body at its Content-Length; what follows is the next request.
      contentLengthIsExact: true,
      openEventChannel: openNodeEventChannel,
    },
  });

  let draining = false;
  // Never rejects: the adapter would answer a rejection with the error's stack as the body.
  const answer = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const response = await app.fetch(request);
    try {
      // A refused body is left unread: closing the connection stops Node reading the rest.
      // While draining, closing after each answer lets keep-alive clients go elsewhere.
      if (draining || response.status === 413) response.headers.set('connection', 'close');
      const line: RequestLine = {
        reqId: response.headers.get(REQUEST_ID_HEADER)!,
        method: request.method,
        path: pathOf(request.url),
        status: response.status,
        ms: Math.round((performance.now() - started) * 100) / 100,
      };
      // Probes come every few seconds from every balancer: they would drown the log.
      if (line.path === HEALTH_PATH) logger.debug(line, REQUEST_MESSAGE);
      else logger.info(line, REQUEST_MESSAGE);
    } catch (error) {
      // The handler's answer stands: a change it made must not be reported as failed.
      reportError(error, request);
    }
    return response;
  };
  // Node hands over all the requests pipelined on a connection at once and only orders their
  // answers. RFC 9112 (9.3.2) lets a server work on pipelined requests together only when all
  // are safe: a GET sent after a POST must see what the POST did. So a request waits until the
  // one before it on its connection has its answer.
  const lastOnConnection = new WeakMap<Socket, Promise<Response>>();
  const adapter = createServerAdapter<{ req: IncomingMessage }>((request, { req }) => {
    const before = lastOnConnection.get(req.socket);
    const answered = before ? before.then(() => answer(request)) : answer(request);
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
  const close = async () => {
    app.drain();
    // Balancers see /healthz answer 503 and move traffic away before the listener closes.
    if (config.server.drainDelayMs > 0) await delay(config.server.drainDelayMs);
    draining = true;
    // Open event streams would hold their connections until the timeout: end them first.
    app.close();
    return drain(server, config.server.shutdownTimeoutMs);
  };
  return { url, app, server, close };
}
