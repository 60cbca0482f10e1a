import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import * as rules from './api-rules.ts';
import { empty, isJson, json, problem, send, withFields } from './bare-replies.ts';
import { TodoList, type Todo, type TodoChange } from './todo-list.ts';

type Reply = ServerResponse;

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
