import type { AppConfig } from '../config.ts';
import { EXAMPLE_TODO } from './components.ts';
import { idempotencyAnswers } from './idempotency.ts';
import {
  body,
  bodyRefusals,
  ETAG,
  FAILED,
  json,
  NOT_MODIFIED,
  preflight,
  problem,
  ref,
} from './parts.ts';

const CHANGED = problem("The item's ETag is not one `If-Match` names; nothing changed.");

/** Which list the paths are of: the default one, or a named one, whose id is in the path. */
interface ListKind {
  /** A named list's operation ids end in `InList`, so each stays unique in the document. */
  readonly named: boolean;
}

/**
 * A list's items and its event stream: `/api/todos`, `/api/todos/{id}` and `/api/sse` for the
 * default list, `/api/lists/{listId}/…` for a named one, under the same rules. A named list's
 * paths also answer 404 when no list has the id.
 */
export function todoPaths({ limits, sse }: AppConfig, { named }: ListKind) {
  const refusals = bodyRefusals(limits.maxBodyBytes);
  const id = (operation: string) => (named ? `${operation}InList` : operation);
  const noList = named ? { '404': problem('No list has this id (or it was deleted).') } : {};
  const noItem = problem(
    named
      ? 'No list has this id, or no item of the list has this id (or it is not a UUID).'
      : 'No item has this id (or it is not a UUID).',
  );
  const listParameter = named ? { parameters: [ref('parameters', 'ListId')] } : {};
  const collection = named ? 'the list' : 'the default list';
  const keyed = idempotencyAnswers('item');

  return {
    todos: {
      ...listParameter,
      get: {
        operationId: id('listTodos'),
        summary: `List every item of ${collection}, oldest first`,
        parameters: [ref('parameters', 'IfNoneMatch')],
        responses: {
          '200': json('The list.', ref('schemas', 'TodoList'), ETAG),
          '304': NOT_MODIFIED,
          ...noList,
          '500': FAILED,
        },
      },
      post: {
        operationId: id('createTodo'),
        summary: `Create an item in ${collection}`,
        parameters: keyed.parameters,
        requestBody: body('NewTodo', { title: 'Buy milk' }),
        responses: {
          ...keyed.responses,
          '201': json('The new item.', ref('schemas', 'Todo'), {
            ...ETAG,
            Location: ref('headers', 'Location'),
          }),
          ...noList,
          ...refusals,
          '507': problem(
            `The list already holds ${limits.maxItems} items (\`limits.maxItems\`); nothing was stored.`,
          ),
          '500': FAILED,
        },
      },
      options: preflight('GET, POST, OPTIONS', 'Content-Type'),
    },
    item: {
      parameters: [...(named ? [ref('parameters', 'ListId')] : []), ref('parameters', 'TodoId')],
      get: {
        operationId: id('getTodo'),
        summary: 'Read one item',
        parameters: [ref('parameters', 'IfNoneMatch')],
        responses: {
          '200': json('The item.', ref('schemas', 'Todo'), ETAG),
          '304': NOT_MODIFIED,
          '404': noItem,
          '500': FAILED,
        },
      },
      put: {
        operationId: id('replaceTodo'),
        summary: "Replace an item's title and completed",
        parameters: [ref('parameters', 'IfMatch')],
        requestBody: body('TodoReplacement', { title: 'Buy oat milk', completed: true }),
        responses: {
          '200': json('The item as it is now.', ref('schemas', 'Todo'), ETAG),
          '404': noItem,
          '415': refusals['415'],
          '412': CHANGED,
          '413': refusals['413'],
          '400': refusals['400'],
          '500': FAILED,
        },
      },
      delete: {
        operationId: id('deleteTodo'),
        summary: 'Delete an item',
        parameters: [ref('parameters', 'IfMatch')],
        responses: {
          '200': json('The deleted item, as it was.', ref('schemas', 'Todo'), ETAG),
          '404': noItem,
          '412': CHANGED,
          '500': FAILED,
        },
      },
      options: preflight('PUT, DELETE, OPTIONS', 'Content-Type'),
    },
    sse: {
      ...listParameter,
      get: {
        operationId: id('streamEvents'),
        summary: `Every change of ${collection}, live, as Server-Sent Events`,
        description:
          'Opens with `retry: 3000`. A new client then gets a `snapshot` event (data: the items). ' +
          'Each change is one event to every client, in order: `created`, `updated` or ' +
          '`deleted`, its data the item (for `deleted`, as it was); on a named list also ' +
          '`list-renamed`, its data the list. Every such event has an id, ' +
          "`<run>.<sequence>`: ids increase within a run of the list, and the list's ETag is " +
          'the id of the last event. A client that reconnects with `Last-Event-ID` gets exactly ' +
          `the events it missed while the last ${sse.replayEvents} are kept ` +
          '(`sse.replayEvents`), else a fresh `snapshot`. A `: ping` comment comes every ' +
          `${sse.heartbeatSeconds} s (\`sse.heartbeatSeconds\`). When a named list is deleted, ` +
          'its streams get a last event, `list-deleted` (no id; data: the list), and end. HEAD ' +
          'is refused (405).',
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
          ...noList,
          '503': problem(
            `Already ${sse.maxClients} streams of the list are open (\`sse.maxClients\`), or ` +
              'the server is stopping; try again after `Retry-After`.',
            { 'Retry-After': ref('headers', 'RetryAfter') },
          ),
          '500': FAILED,
        },
      },
      options: preflight('GET, OPTIONS', 'Last-Event-ID'),
    },
  };
}
