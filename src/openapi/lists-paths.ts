import type { AppConfig } from '../config.ts';
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
import { idempotencyAnswers } from './idempotency.ts';

const NO_LIST = problem(
  'No list has this id: it was never made, was deleted, or is not an id. The answer is the ' +
    'same in each case.',
);
const CHANGED = problem("The list's ETag is not one `If-Match` names; nothing changed.");
const LIST = ref('schemas', 'List');
const LIST_HEADERS = { ...ETAG, Link: ref('headers', 'ListPage') };

/** `POST /api/lists` and `/api/lists/{listId}`: making, reading, renaming, deleting a list. */
export function listsPaths({ limits }: AppConfig) {
  const refusals = bodyRefusals(limits.maxBodyBytes);
  const keyed = idempotencyAnswers('list');
  return {
    '/api/lists': {
      post: {
        operationId: 'createList',
        summary: 'Make a named list',
        description:
          'Anyone who has the new list’s id (its link) can read and change it; there is no ' +
          'way to list the lists. The body may be left out: the list is then untitled.',
        parameters: keyed.parameters,
        requestBody: body('NewList', { title: 'Groceries' }, false),
        responses: {
          ...keyed.responses,
          '201': json('The new list.', LIST, {
            ...LIST_HEADERS,
            Location: ref('headers', 'ListLocation'),
          }),
          ...refusals,
          '507': problem(
            'On Node, the service already holds `limits.maxLists` named lists; none was made.',
          ),
          '500': FAILED,
        },
      },
      options: preflight('POST, OPTIONS', 'Content-Type'),
    },
    '/api/lists/{listId}': {
      parameters: [ref('parameters', 'ListId')],
      get: {
        operationId: 'getList',
        summary: "Read a list's title",
        parameters: [ref('parameters', 'IfNoneMatch')],
        responses: {
          '200': json('The list.', LIST, LIST_HEADERS),
          '304': NOT_MODIFIED,
          '404': NO_LIST,
        },
      },
      put: {
        operationId: 'renameList',
        summary: 'Rename a list',
        parameters: [ref('parameters', 'IfMatch')],
        requestBody: body('ListRename', { title: 'Weekend groceries' }),
        responses: {
          '200': json('The list as it is now.', LIST, LIST_HEADERS),
          '404': NO_LIST,
          '415': refusals['415'],
          '412': CHANGED,
          '413': refusals['413'],
          '400': refusals['400'],
          '500': FAILED,
        },
      },
      delete: {
        operationId: 'deleteList',
        summary: 'Delete a list, its items and its streams',
        description:
          'The list’s open event streams get a `list-deleted` event and end; from then on every ' +
          'route of the list answers 404.',
        parameters: [ref('parameters', 'IfMatch')],
        responses: {
          '204': { description: 'Deleted; no body.' },
          '404': NO_LIST,
          '412': CHANGED,
          '500': FAILED,
        },
      },
      options: preflight('GET, PUT, DELETE, OPTIONS', 'Content-Type'),
    },
  };
}
