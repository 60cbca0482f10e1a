import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import * as rules from './api-rules.ts';
import { parseFields } from './bare-fields.ts';
import { TodoList, type Todo, type TodoChange } from './todo-list.ts';

type Reply = ServerResponse;
type Headers = Record<string, string>;

/**
 * The ceiling: the to-do API on bare node:http, with no router and no web streams, the same
 * headers and checks as the service, and the list serialised on every GET.
 */
export function createBareServer(maxItems: number) {
  const streams = new Set<Reply>();
  const broadcast = (change: TodoChange, todo: Todo, version: string) => {
    if (streams.size === 0) return;
    const frame = Buffer.from(
      `id: ${version}\nevent: ${change}\ndata: ${JSON.stringify(todo)}\n\n`,
    );
    for (const stream of streams) stream.write(frame);
  };
  const list = new TodoList(broadcast);

  const send = (res: Reply, status: number, body: string, headers: Headers) => {
    headers['content-length'] = String(Buffer.byteLength(body));
    res.writeHead(status, headers).end(body);
  };
  const json = (res: Reply, status: number, body: string, etag: string, extra?: Headers) =>
    send(res, status, body, {
      'content-type': rules.JSON_TYPE,
      ...rules.API_HEADERS,
      etag,
      ...extra,
    });
  const problem = (res: Reply, status: number, detail: string, extra?: Headers) =>
    send(res, status, rules.problemBody(status, detail), {
      'content-type': rules.PROBLEM_TYPE,
      ...rules.API_HEADERS,
      ...extra,
    });
  const empty = (res: Reply, status: number, headers: Headers) =>
    res.writeHead(status, headers).end();

  const isJson = (req: IncomingMessage, res: Reply) => {
    const type = req.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
    if (type === 'application/json') return true;
    problem(res, 415, 'Send the body as application/json.');
    return false;
  };

  /** Reads a JSON body of at most MAX_BODY_BYTES, then hands over its checked fields. */
  const withFields = (
    req: IncomingMessage,
    res: Reply,
    pathId: string | undefined,
    use: (title: string, completed: boolean) => void,
  ) => {
    const tooLarge = () =>
      problem(res, 413, `The body is larger than ${rules.MAX_BODY_BYTES} bytes.`, {
        connection: 'close',
      });
    if (Number(req.headers['content-length']) > rules.MAX_BODY_BYTES) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > rules.MAX_BODY_BYTES) {
        req.removeAllListeners('data').removeAllListeners('end').resume();
        tooLarge();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        return problem(res, 400, 'The body is not valid JSON.');
      }
      const fields = parseFields(body, pathId);
      if (!fields.ok) {
        return send(
          res,
          400,
          rules.problemBody(400, 'The body is not a valid to-do.', fields.errors),
          {
            'content-type': rules.PROBLEM_TYPE,
            ...rules.API_HEADERS,
          },
        );
      }
      use(fields.title, fields.completed);
    });
  };

  const collection = (req: IncomingMessage, res: Reply) => {
    switch (req.method) {
      case 'GET':
      case 'HEAD': {
        const etag = list.etag;
        if (rules.notModified(req.headers['if-none-match'], etag)) {
          return empty(res, 304, { ...rules.API_HEADERS, etag });
        }
        return json(res, 200, JSON.stringify(list.list()), etag);
      }
      case 'POST':
        if (!isJson(req, res)) return;
        return withFields(req, res, undefined, (title, completed) => {
          if (list.size >= maxItems) return problem(res, 507, 'The list is full.');
          const { todo, etag } = list.create(title, completed);
          json(res, 201, JSON.stringify(todo), etag, { location: `/api/todos/${todo.id}` });
        });
      case 'OPTIONS':
        return empty(res, 204, rules.COLLECTION_PREFLIGHT);
      default:
        return problem(res, 405, 'Method not allowed.', { allow: rules.COLLECTION_ALLOW });
    }
  };

  const item = (req: IncomingMessage, res: Reply, id: string) => {
    const method = req.method ?? '';
    if (method === 'OPTIONS') return empty(res, 204, rules.ITEM_PREFLIGHT);
    if (!['GET', 'HEAD', 'PUT', 'DELETE'].includes(method)) {
      return problem(res, 405, 'Method not allowed.', { allow: rules.ITEM_ALLOW });
    }
    const stored = list.get(id);
    if (stored === undefined) return problem(res, 404, 'No to-do has this id.');
    if (method === 'GET' || method === 'HEAD') {
      if (rules.notModified(req.headers['if-none-match'], stored.etag)) {
        return empty(res, 304, { ...rules.API_HEADERS, etag: stored.etag });
      }
      return json(res, 200, JSON.stringify(stored.todo), stored.etag);
    }
    const ifMatch = req.headers['if-match'];
    const changed = () => problem(res, 412, 'The to-do has changed since the version named.');
    if (method === 'DELETE') {
      if (!rules.ifMatchAllows(ifMatch, stored.etag)) return changed();
      list.delete(id);
      return json(res, 200, JSON.stringify(stored.todo), stored.etag);
    }
    if (!isJson(req, res)) return;
    if (!rules.ifMatchAllows(ifMatch, stored.etag)) return changed();
    withFields(req, res, id, (title, completed) => {
      // The body arrived later: the item may have changed or gone meanwhile.
      const current = list.get(id);
      if (current === undefined) return problem(res, 404, 'No to-do has this id.');
      if (!rules.ifMatchAllows(ifMatch, current.etag)) return changed();
      const { todo, etag } = list.replace(id, title, completed);
      json(res, 200, JSON.stringify(todo), etag);
    });
  };

  const events = (req: IncomingMessage, res: Reply) => {
    if (req.method !== 'GET') return problem(res, 405, 'Method not allowed.', { allow: 'GET' });
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'Location, ETag',
    });
    const snapshot = JSON.stringify(list.list());
    res.write(`retry: 3000\n\nid: ${list.version}\nevent: snapshot\ndata: ${snapshot}\n\n`);
    streams.add(res);
    res.on('close', () => streams.delete(res));
  };

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    let path = query === -1 ? url : url.slice(0, query);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);

    if (path === '/api/todos') return collection(req, res);
    if (path.startsWith('/api/todos/')) return item(req, res, path.slice('/api/todos/'.length));
    if (path === '/api/sse') return events(req, res);
    if (path === '/hello') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(res, 405, 'Method not allowed', {
          'content-type': rules.TEXT_TYPE,
          allow: 'GET, HEAD',
        });
      }
      const search = query === -1 ? '' : url.slice(query + 1);
      const text = rules.greeting(new URLSearchParams(search).get('name'));
      if (text === undefined) {
        return send(res, 400, rules.problemBody(400, 'name is longer than 100 characters.'), {
          'content-type': rules.PROBLEM_TYPE,
          'cache-control': 'no-store',
        });
      }
      return send(res, 200, text, { 'content-type': rules.TEXT_TYPE });
    }
    if (path === '/api' || path.startsWith('/api/')) return problem(res, 404, 'No such route.');
    send(res, 404, 'Not found', { 'content-type': rules.TEXT_TYPE });
  });

  return { server, list, openStreams: () => streams.size };
}
