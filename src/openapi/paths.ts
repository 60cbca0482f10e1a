import type { AppConfig } from '../config.ts';
import { listsPaths } from './lists-paths.ts';
import { json, problem, ref } from './parts.ts';
import { todoPaths } from './todo-paths.ts';

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
export function pathsFor(config: AppConfig) {
  const defaultList = todoPaths(config, { named: false });
  const namedList = todoPaths(config, { named: true });
  return {
    '/api/todos': defaultList.todos,
    '/api/todos/{id}': defaultList.item,
    '/api/sse': defaultList.sse,
    ...listsPaths(config),
    '/api/lists/{listId}/todos': namedList.todos,
    '/api/lists/{listId}/todos/{id}': namedList.item,
    '/api/lists/{listId}/sse': namedList.sse,
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
    '/': page('getPage', 'The to-do page (TodoMVC) of the default list, live in every tab.'),
    '/lists/{listId}': {
      parameters: [ref('parameters', 'ListId')],
      ...page('getListPage', 'The to-do page of a named list; an unknown id says so on the page.'),
    },
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
