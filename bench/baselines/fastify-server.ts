import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import * as rules from './api-rules.ts';
import { CREATE_BODY, ITEM_SCHEMA, NOTHING, REPLACE_BODY } from './fastify-schemas.ts';
import { TodoList } from './todo-list.ts';

interface TodoBody {
  readonly id?: string;
  readonly title: string;
  readonly completed: boolean;
}
type ItemRequest = FastifyRequest<{ Params: { id: string } }>;

const problem = (reply: FastifyReply, status: number, detail: string) =>
  reply.code(status).type(rules.PROBLEM_TYPE).send(rules.problemBody(status, detail));
const notAllowed = (allow: string) => (_: FastifyRequest, reply: FastifyReply) =>
  problem(reply.header('allow', allow), 405, 'Method not allowed.');

/**
 * Fastify 5 as its guides write it: JSON schemas for bodies and answers, hooks for the
 * shared checks, the list serialised (by the answer's schema) on every GET; with `logger`, its
 * own request log to stdout.
 */
export function buildFastify(maxItems: number, logger = false) {
  const list = new TodoList();
  const app = Fastify({
    logger,
    bodyLimit: rules.MAX_BODY_BYTES,
    // Refuse, not strip, unknown keys, and never coerce "yes" into a boolean.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
  });

  // The API takes JSON only: a text/plain body is 415, as the service answers it.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/')) reply.headers(rules.API_HEADERS);
    done();
  });
  app.setErrorHandler<FastifyError>((error, _request, reply) => {
    const status = error.validation ? 400 : (error.statusCode ?? 500);
    const errors = error.validation?.map((issue) => ({
      pointer: issue.instancePath || `/${String(issue.params.additionalProperty ?? '')}`,
      detail: issue.message ?? 'is not valid',
    }));
    const detail = status === 500 ? 'The server could not answer this request.' : error.message;
    reply
      .code(status)
      .type(rules.PROBLEM_TYPE)
      .send(rules.problemBody(status, detail, errors));
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) return problem(reply, 404, 'No such route.');
    reply.code(404).type(rules.TEXT_TYPE).send('Not found');
  });

  // 404 for an unknown id and 412 for a stale If-Match come before the body is read.
  const existingItem = (request: ItemRequest, reply: FastifyReply, done: () => void): void => {
    const stored = list.get(request.params.id);
    if (stored === undefined) problem(reply, 404, 'No to-do has this id.');
    else if (!rules.ifMatchAllows(request.headers['if-match'], stored.etag)) {
      problem(reply, 412, 'The to-do has changed since the version named.');
    } else done();
  };

  app.get(
    '/api/todos',
    { schema: { response: { 200: { type: 'array', items: ITEM_SCHEMA }, 304: NOTHING } } },
    (request, reply) => {
      reply.header('etag', list.etag);
      if (rules.notModified(request.headers['if-none-match'], list.etag))
        return reply.code(304).send();
      reply.send(list.list());
    },
  );
  app.post<{ Body: TodoBody }>(
    '/api/todos',
    { schema: { body: CREATE_BODY, response: { 201: ITEM_SCHEMA } } },
    (request, reply) => {
      if (list.size >= maxItems) return problem(reply, 507, 'The list is full.');
      const { todo, etag } = list.create(request.body.title, request.body.completed);
      reply
        .code(201)
        .headers({ etag, location: `/api/todos/${todo.id}` })
        .send(todo);
    },
  );
  app.options('/api/todos', (_, reply) =>
    reply.code(204).headers(rules.COLLECTION_PREFLIGHT).send(),
  );
  app.route({
    method: ['PUT', 'DELETE', 'PATCH'],
    url: '/api/todos',
    handler: notAllowed(rules.COLLECTION_ALLOW),
  });

  app.get<{ Params: { id: string } }>(
    '/api/todos/:id',
    { onRequest: existingItem, schema: { response: { 200: ITEM_SCHEMA, 304: NOTHING } } },
    (request, reply) => {
      const { todo, etag } = list.get(request.params.id)!;
      reply.header('etag', etag);
      if (rules.notModified(request.headers['if-none-match'], etag)) return reply.code(304).send();
      reply.send(todo);
    },
  );
  app.put<{ Params: { id: string }; Body: TodoBody }>(
    '/api/todos/:id',
    { onRequest: existingItem, schema: { body: REPLACE_BODY, response: { 200: ITEM_SCHEMA } } },
    (request, reply) => {
      const { id } = request.params;
      const { title, completed, id: bodyId } = request.body;
      if (bodyId !== undefined && bodyId !== id)
        return problem(reply, 400, 'id must equal the path id.');
      // The body arrived later: the item may have changed or gone meanwhile.
      const current = list.get(id);
      if (current === undefined) return problem(reply, 404, 'No to-do has this id.');
      if (!rules.ifMatchAllows(request.headers['if-match'], current.etag)) {
        return problem(reply, 412, 'The to-do has changed since the version named.');
      }
      const { todo, etag } = list.replace(id, title, completed);
      reply.header('etag', etag).send(todo);
    },
  );
  app.delete<{ Params: { id: string } }>(
    '/api/todos/:id',
    { onRequest: existingItem, schema: { response: { 200: ITEM_SCHEMA } } },
    (request, reply) => {
      const { todo, etag } = list.delete(request.params.id)!;
      reply.header('etag', etag).send(todo);
    },
  );
  app.options('/api/todos/:id', (_, reply) => reply.code(204).headers(rules.ITEM_PREFLIGHT).send());
  app.route({
    method: ['POST', 'PATCH'],
    url: '/api/todos/:id',
    handler: notAllowed(rules.ITEM_ALLOW),
  });

  app.get<{ Querystring: { name?: string } }>('/hello', (request, reply) => {
    const text = rules.greeting(request.query.name);
    if (text === undefined) return problem(reply, 400, 'name is longer than 100 characters.');
    reply.type(rules.TEXT_TYPE).send(text);
  });

  return { app, list };
}
