import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter, Response } from '@whatwg-node/server';
import { serveParent } from '../child-ipc.ts';
import type { requestLogger } from '../node-host.ts';

/**
 * The adapter as the Node host creates it, with a handler that does the least each scenario
 * allows: it reads a body where one is sent and answers with fixed bytes and the headers ours
 * sends, with no routing, checks, store or log. What ours costs beyond this server is our own
 * code's share of a request. Started with the argument `log`, it also writes the line our host
 * logs for each request, with the same logger: what ours costs beyond that is our code's share
 * less the log line.
 */
const ITEM = JSON.stringify({
  id: '5f0c2a4e-8b1d-4c3e-9a7f-1d2e3f4a5b6c',
  title: 'Water the plants',
  completed: false,
});
const API_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, ETag',
  'cache-control': 'no-store',
};
const ETAG = '"5f0c2a4e.1"';
const decoder = new TextDecoder();

let items = 0;
/** The list's bytes, made on the first GET after a seed, as ours makes them once per change. */
let list: Uint8Array | undefined;
const listBytes = () =>
  (list ??= new TextEncoder().encode(`[${Array.from({ length: items }, () => ITEM).join(',')}]`));

const json = (status: number, body: string | Uint8Array, extra?: Record<string, string>) =>
  new Response(body as BodyInit, {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...API_HEADERS,
      etag: ETAG,
      'x-request-id': crypto.randomUUID(),
      ...extra,
    },
  });

const answer = async (request: Request): Promise<Response> => {
  switch (request.method) {
    case 'OPTIONS':
      return new Response(null, {
        status: 204,
        headers: {
          ...API_HEADERS,
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'content-type, if-match, if-none-match',
          'access-control-max-age': '86400',
          'x-request-id': crypto.randomUUID(),
        },
      });
    case 'POST':
      JSON.parse(decoder.decode(await request.arrayBuffer()));
      return json(201, ITEM, { location: '/api/todos/5f0c2a4e-8b1d-4c3e-9a7f-1d2e3f4a5b6c' });
    case 'PUT':
      JSON.parse(decoder.decode(await request.arrayBuffer()));
      return json(200, ITEM);
    default:
      // GET /api/todos is the one path that ends in "todos"; any other GET or a DELETE
      // answers one item, as GET one, DELETE and GET /hello all do.
      return request.url.endsWith('/todos') ? json(200, listBytes()) : json(200, ITEM);
  }
};

type Log = ReturnType<typeof requestLogger>;
const logged =
  (log: Log) =>
  async (request: Request): Promise<Response> => {
    const started = performance.now();
    const response = await answer(request);
    log(request, response, started);
    return response;
  };

// Only the logging server loads the service's modules, so the plain one stays as it was.
const log =
  process.argv[3] === 'log' ? (await import('../node-host.ts')).requestLogger() : undefined;
const adapter = createServerAdapter(log ? logged(log) : answer, { __useCustomAbortCtrl: false });

const server = createServer(adapter);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent({
    url: `http://127.0.0.1:${port}`,
    openStreams: () => 0,
    // Seeding only sizes the list GET answers.
    create: () => {
      items += 1;
      list = undefined;
      return String(items);
    },
  });
});
