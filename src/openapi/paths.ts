import type { AppConfig } from '../config.ts';
import { EXAMPLE_TODO } from './components.ts';

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** A problem+json answer; every error the API gives has this body. */
function problem(description: string, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/problem+json': { schema: ref('schemas', 'Problem') } },
  };
}

function json(description: string, schema: unknown, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema } },
  };
}

const FAILED = problem('An unexpected failure; the detail is generic and the log has the rest.');
const ETAG = { ETag: ref('headers', 'ETag') };
const NO_ITEM = problem('No item has this id (or it is not a UUID).');
const NOT_MODIFIED = { description: 'The ETag matches `If-None-Match`: no body.', headers: ETAG };
const CHANGED = problem("The item's ETag is not one `If-Match` names; nothing changed.");

const body = (schema: string, example: unknown) => ({
  required: true,
  content: { 'application/json': { schema: ref('schemas', schema), example } },
});

function preflight(methods: string, headers: string) {
  return {
    summary: 'CORS preflight',
    description: `Answers any origin: methods \`${methods}\`, headers \`${headers}\`, cached 86400 s.`,
    responses: { '204': { description: 'The preflight answer, no body.' } },
  };
}

/** A page of the site; any other file of the site is served the same way, else 404. */
function page(operationId: string, summary: string) {
  return {
    get: {
      operationId,
      summary,
      responses: {
        '200': {
          description: 'The page.',
          content: { 'text/html': { schema: { type: 'string' } } },
        },
      },
    },
  };
}

/** Every path the service serves, with the limits `config` sets. */
export function pathsFor({ limits, sse }: AppConfig) {
  /** The answers every body-reading operation may give, in the order they are checked. */
  const bodyRefusals = {
    '415': problem('The body is not sent as `Content-Type: application/json`.'),
    '413': problem(
      `The body is larger than ${limits.maxBodyBytes} bytes (\`limits.maxBodyBytes\`); ` +
        'decided without reading more than that.',
    ),
    '400': problem(
      'The body is not JSON, not an object, or fails validation; `errors` has one entry per problem.',
    ),
  };

  return {
    '/api/todos': {
      get: {
        operationId: 'listTodos',
        summary: 'List every item, oldest first',
        parameters: [ref('parameters', 'IfNoneMatch')],
        responses: {
          '200': json('The list.', ref('schemas', 'TodoList'), ETAG),
          '304': NOT_MODIFIED,
          '500': FAILED,
        },
      },
      post: {
        operationId: 'createTodo',
        summary: 'Create an item',
        requestBody: body('NewTodo', { title: 'Buy milk' }),
        responses: {
          '201': json('The new item.', ref('schemas', 'Todo'), {
            ...ETAG,
            Location: ref('headers', 'Location'),
          }),
          ...bodyRefusals,
          '507': problem(
            `The list already holds ${limits.maxItems} items (\`limits.maxItems\`); nothing was stored.`,
          ),
          '500': FAILED,
        },
      },
      options: preflight('GET, POST, OPTIONS', 'Content-Type'),
    },
    '/api/todos/{id}': {
      parameters: [ref('parameters', 'TodoId')],
      get: {
        operationId: 'getTodo',
        summary: 'Read one item',
        parameters: [ref('parameters', 'IfNoneMatch')],
        responses: {
          '200': json('The item.', ref('schemas', 'Todo'), ETAG),
          '304': NOT_MODIFIED,
          '404': NO_ITEM,
          '500': FAILED,
        },
      },
      put: {
        operationId: 'replaceTodo',
        summary: "Replace an item's title and completed",
        parameters: [ref('parameters', 'IfMatch')],
        requestBody: body('TodoReplacement', { title: 'Buy oat milk', completed: true }),
        responses: {
          '200': json('The item as it is now.', ref('schemas', 'Todo'), ETAG),
          '404': NO_ITEM,
          '415': bodyRefusals['415'],
          '412': CHANGED,
          '413': bodyRefusals['413'],
          '400': bodyRefusals['400'],
          '500': FAILED,
        },
      },
      delete: {
        operationId: 'deleteTodo',
        summary: 'Delete an item',
        parameters: [ref('parameters', 'IfMatch')],
        responses: {
          '200': json('The deleted item, as it was.', ref('schemas', 'Todo'), ETAG),
          '404': NO_ITEM,
          '412': CHANGED,
          '500': FAILED,
        },
      },
      options: preflight('PUT, DELETE, OPTIONS', 'Content-Type'),
    },
    '/api/sse': {
      get: {
        operationId: 'streamEvents',
        summary: 'Every change, live, as Server-Sent Events',
        description:
          'Opens with `retry: 3000`. A new client then gets a `snapshot` event (data: the list). ' +
          'Each change is one event to every client, in order: `created`, `updated` or ' +
          '`deleted`, its data the item (for `deleted`, as it was). Every event has an id, ' +
          "`<run>.<sequence>`: ids increase within a run of the server, and the list's ETag is " +
          'the id of the last event. A client that reconnects with `Last-Event-ID` gets exactly ' +
          `the events it missed while the last ${sse.replayEvents} are kept ` +
          '(`sse.replayEvents`), else a fresh `snapshot`. A `: ping` comment comes every ' +
          `${sse.heartbeatSeconds} s (\`sse.heartbeatSeconds\`). HEAD is refused (405).`,
        parameters: [ref('parameters', 'LastEventId'), ref('parameters', 'LastEventIdQuery')],
        responses: {
          '200': {
            description: 'The stream; it stays open until the client leaves.',
            content: {
              'text/event-stream': {
                schema: { type: 'string' },
                example:
                  'retry: 3000\n\n' +
                  `event: snapshot\nid: 3f9a1c2e.41\ndata: []\n\n` +
                  `event: created\nid: 3f9a1c2e.42\ndata: ${JSON.stringify(EXAMPLE_TODO)}\n\n`,
              },
            },
          },
          '503': problem(
            `Already ${sse.maxClients} streams are open (\`sse.maxClients\`), or the server is ` +
              'stopping; try again after `Retry-After`.',
            { 'Retry-After': ref('headers', 'RetryAfter') },
          ),
          '500': FAILED,
        },
      },
      options: preflight('GET, OPTIONS', 'Last-Event-ID'),
    },
    '/api/openapi.json': {
      get: {
        operationId: 'describeApi',
        summary: 'This document',
        responses: { '200': json('The OpenAPI 3.1 description of the API.', { type: 'object' }) },
      },
    },
    '/hello': {
      get: {
        operationId: 'greet',
        summary: 'A greeting',
        parameters: [
          {
            name: 'name',
            in: 'query',
            description: 'Who to greet, trimmed; at most 100 code points. Empty greets the world.',
            schema: { type: 'string' },
            example: 'Ada',
          },
        ],
        responses: {
          '200': {
            description: '`Hello, <name>!`, or `Hello, world!`.',
            content: { 'text/plain': { schema: { type: 'string' }, example: 'Hello, Ada!' } },
          },
          '400': problem('The name is longer than 100 code points.'),
        },
      },
    },
    '/': page('getPage', 'The to-do page (TodoMVC), live in every tab.'),
    '/docs': page('getApiReference', 'This API reference, readable in a browser.'),
    '/healthz': {
      get: {
        operationId: 'checkHealth',
        summary: 'Whether this instance takes traffic',
        responses: {
          '200': json('It does.', ref('schemas', 'Health')),
          '503': problem('It is shutting down: send requests to another instance.'),
        },
      },
    },
  };
}
