import { hash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createServerAdapter, Response as AdapterResponse } from '@whatwg-node/server';
import { createApp } from '../../app.ts';
import { requestIdOf } from '../../http/request.ts';
import { loggedPath, pathOf, type ErrorReporter } from '../../http/router.ts';
import { newViewSecret, ViewIds } from '../../lists/list-id.ts';
import { localLists } from '../../lists/local-lists.ts';
import type { ListStores } from '../../storage/kept-lists.ts';
import { fileAssets, PROJECT_ROOT } from './file-assets.ts';
import { REQUEST_MESSAGE, type Logger } from './logger.ts';
import type { NodeConfig } from './node-config.ts';
import { answerClientErrorsInOrder } from './client-errors.ts';
import { NodeEventChannel } from './node-event-channel.ts';

// The connection's address, which the handler cannot see, kept on its request: a WeakMap beside
// it cost a GET measurably more server CPU (npm run bench:ab).
const CLIENT_ADDRESS = Symbol('the address of the connection');
type AddressedRequest = Request & { [CLIENT_ADDRESS]?: string };
const IN_FLIGHT = Symbol('requests in flight');
const LAST_ANSWER = Symbol('the answer to the last request');
/** A connection with the count of its requests not yet answered, and the last one's answer. */
type QueuedSocket = Socket & { [IN_FLIGHT]?: number; [LAST_ANSWER]?: Promise<Response> };

// A logged path has no query, and each list's id in it as its tag (docs/configuration.md, Logs).
const listTagOf = (listId: string) => hash('sha256', listId, 'base64url').slice(0, 8);
const loggedPathOf = (url: string) => loggedPath(pathOf(url), listTagOf);

export type RunningServer = Awaited<ReturnType<typeof startNodeServer>>;

/** Serves the handler on `node:http` through @whatwg-node/server; `stores` keep the lists. */
export async function startNodeServer(
  config: NodeConfig,
  logger: Logger,
  stores?: ListStores,
  viewSecret = newViewSecret(),
) {
  const reportError: ErrorReporter = (error, request, reqId) => {
    try {
      const at = request && { method: request.method, path: loggedPathOf(request.url) };
      logger.error({ err: error, reqId, ...at }, 'unexpected error');
    } catch {
      // The log itself is broken: there is nowhere left to report to.
    }
  };
  const { clientAddressHeader } = config.server;
  const app = createApp({
    config,
    lists: localLists({ stores, maxLists: config.limits.maxLists }),
    viewIds: new ViewIds(viewSecret),
    host: {
      assets: fileAssets(join(PROJECT_ROOT, 'public')),
      reportError,
      // The adapter writes its own Response class straight to the socket.
      Response: AdapterResponse as typeof Response,
      // Node's parser ends a body at its Content-Length; what follows is the next request.
      contentLengthIsExact: true,
      afterAnswers: setImmediate,
      openEventChannel: (queueBytes) => new NodeEventChannel(queueBytes),
      // What the proxy named in `clientAddressHeader` added last, after any the client sent.
      clientAddressOf: (request) =>
        (clientAddressHeader &&
          request.headers.get(clientAddressHeader)?.split(',').at(-1)?.trim()) ||
        (request as AddressedRequest)[CLIENT_ADDRESS],
    },
  });

  let draining = false;
  // Never rejects: the adapter would answer a rejection with the error's stack as the body.
  const answer = async (request: Request, socket: QueuedSocket): Promise<Response> => {
    const started = performance.now();
    const reqId = requestIdOf(request);
    const response = await app.fetch(request, reqId);
    // The last answer is kept only while a later request may have to wait for it.
    if ((socket[IN_FLIGHT]! -= 1) === 0) socket[LAST_ANSWER] = undefined;
    try {
      // A refused body is left unread: closing the connection stops Node reading the rest.
      // While draining, closing after each answer lets keep-alive clients go elsewhere.
      if (draining || response.status === 413) response.headers.set('connection', 'close');
      const path = loggedPathOf(request.url);
      // Probes come every few seconds from every balancer: they would drown the log.
      const level = path === '/healthz' ? 'debug' : 'info';
      const { method } = request;
      const ms = Math.round((performance.now() - started) * 100) / 100;
      logger[level]({ reqId, method, path, status: response.status, ms }, REQUEST_MESSAGE);
    } catch (error) {
      // The handler's answer stands: a change it made must not be reported as failed.
      reportError(error, request, reqId);
    }
    return response;
  };
  // Node hands over a connection's pipelined requests at once, only ordering their answers: each
  // waits for the answer before it (RFC 9112, 9.3.2); a lone one, the usual case, does not.
  const adapter = createServerAdapter<{ req: IncomingMessage }>((request, { req }) => {
    const socket = req.socket as QueuedSocket;
    (request as AddressedRequest)[CLIENT_ADDRESS] = socket.remoteAddress;
    const waitFor = socket[IN_FLIGHT] ? socket[LAST_ANSWER] : undefined;
    socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1;
    const answered = waitFor
      ? waitFor.then(() => answer(request, socket))
      : answer(request, socket);
    socket[LAST_ANSWER] = answered;
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

  server.listen(config.port, config.host);
  await once(server, 'listening');

  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  /** Drains, then closes, waiting `shutdownTimeoutMs` at most for the requests in flight. */
  const close = async () => {
    app.drain();
    // Balancers see /healthz answer 503 and move traffic away before the listener closes.
    if (config.server.drainDelayMs > 0) await delay(config.server.drainDelayMs);
    draining = true;
    // Open event streams would hold their connections until the timeout: end them first.
    app.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A response whose headers went out before the close may leave its connection open and
    // idle once it ends; close such connections as they appear.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => server.closeAllConnections(), config.server.shutdownTimeoutMs);
    await closed;
    clearInterval(sweep);
    clearTimeout(timer);
  };
  return { url, app, server, close };
}
