import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServerAdapter, Response as AdapterResponse } from '@whatwg-node/server';
import { createApp, type App } from '../../app.ts';
import type { TodoStore } from '../../todos/store.ts';
import { fileAssets } from './file-assets.ts';
import type { Logger } from './logger.ts';
import type { NodeConfig } from './node-config.ts';

/** The project root, the same from `src/hosts/node` and from its build in `dist/hosts/node`. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PUBLIC_DIR = join(PROJECT_ROOT, 'public');

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
    reportError: (error, request) =>
      logger.error('unexpected error', {
        method: request.method,
        path: pathOf(request.url),
        stack: error instanceof Error ? error.stack : String(error),
      }),
  });

  const adapter = createServerAdapter(async (request: Request) => {
    const started = performance.now();
    const response = await app.fetch(request);
    logger.request(
      request.method,
      pathOf(request.url),
      response.status,
      performance.now() - started,
    );
    return response;
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

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return { url, app, server, close: () => drain(server, config.server.shutdownTimeoutMs) };
}

async function drain(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection becomes idle when its request is answered: close it then.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    if ((await Promise.race([closed, timedOut])) === 'timeout') {
      server.closeAllConnections();
      await closed;
    }
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
}

/** The path of a request URL, without its query, which may hold what should not be logged. */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}
