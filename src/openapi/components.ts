import type { AppConfig } from '../config.ts';

const EXAMPLE_ID = '5f0c2a4e-8b1d-4c3e-9a7f-1d2e3f4a5b6c';
export const EXAMPLE_TODO = { id: EXAMPLE_ID, title: 'Buy milk', completed: false };
const EXAMPLE_EVENT_ID = '3f9a1c2e.42';

/** Schemas, responses and headers that several operations share. */
export function componentsFor(limits: AppConfig['limits']) {
  const title = {
    type: 'string',
    minLength: 1,
    maxLength: limits.maxTitleLength,
    pattern: '\\S',
    description:
      `At least one character that is not white space, at most ${limits.maxTitleLength} ` +
      'Unicode code points (`limits.maxTitleLength`); stored exactly as sent.',
    examples: ['Buy milk'],
  };

  return {
    schemas: {
      Todo: {
        type: 'object',
        required: ['id', 'title', 'completed'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid', description: 'Made by the server on create.' },
          title: { type: 'string' },
          completed: { type: 'boolean' },
        },
        examples: [EXAMPLE_TODO],
      },
      TodoList: {
        type: 'array',
        items: { $ref: '#/components/schemas/Todo' },
        description: 'Every item, oldest first; an update keeps an item in its place.',
      },
      NewTodo: {
        type: 'object',
        required: ['title'],
        additionalProperties: false,
        properties: { title, completed: { type: 'boolean', default: false } },
        examples: [{ title: 'Buy milk' }],
      },
      TodoReplacement: {
        type: 'object',
        required: ['title', 'completed'],
        additionalProperties: false,
        properties: {
          title,
          completed: { type: 'boolean' },
          id: {
            type: 'string',
            format: 'uuid',
            description: "Allowed so a client can send back what it got; must be the path's id.",
          },
        },
        examples: [{ title: 'Buy oat milk', completed: true }],
      },
      Problem: {
        type: 'object',
        description: 'An error, as RFC 9457 problem details.',
        required: ['type', 'title', 'status', 'detail'],
        additionalProperties: false,
        properties: {
          type: { const: 'about:blank' },
          title: { type: 'string', description: "The status's reason phrase." },
          status: { type: 'integer' },
          detail: { type: 'string', description: 'What went wrong and what to change.' },
          instance: {
            type: 'string',
            description: "The request's id, as in `X-Request-Id`: quote it to find the request.",
          },
          errors: {
            type: 'array',
            description: 'For a refused body: one entry per problem found.',
            items: {
              type: 'object',
              required: ['pointer', 'detail'],
              additionalProperties: false,
              properties: {
                pointer: {
                  type: 'string',
                  description: 'A JSON Pointer to the field, e.g. `/title`.',
                },
                detail: { type: 'string' },
              },
            },
          },
        },
        examples: [
          {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            detail: 'title must contain at least one character that is not white space.',
            instance: 'b3f1c2d4-0e6a-4d8e-9c1f-2a3b4c5d6e7f',
            errors: [
              {
                pointer: '/title',
                detail: 'title must contain at least one character that is not white space.',
              },
            ],
          },
        ],
      },
      Health: {
        type: 'object',
        required: ['status'],
        additionalProperties: false,
        properties: { status: { const: 'ok' } },
      },
    },
    parameters: {
      TodoId: {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The id of an item. One that is not a UUID names no item: 404.',
        schema: { type: 'string' },
        example: EXAMPLE_ID,
      },
      IfMatch: {
        name: 'If-Match',
        in: 'header',
        description:
          'Change the item (or the list) only if its ETag is one of these (or `*`); else 412.',
        schema: { type: 'string' },
      },
      IfNoneMatch: {
        name: 'If-None-Match',
        in: 'header',
        description: 'Answer 304 with no body if the ETag is one of these (or `*`).',
        schema: { type: 'string' },
      },
      LastEventId: {
        name: 'Last-Event-ID',
        in: 'header',
        description: 'The id of the last event the client applied: resume after it.',
        schema: { type: 'string' },
        example: EXAMPLE_EVENT_ID,
      },
      LastEventIdQuery: {
        name: 'lastEventId',
        in: 'query',
        description: '`Last-Event-ID` for clients that cannot set headers; the header wins.',
        schema: { type: 'string' },
        example: EXAMPLE_EVENT_ID,
      },
    },
    headers: {
      ETag: {
        description:
          "The version of what the answer is about, quoted: an item's or a list's items' (the " +
          "id of the last event that changed them), or a named list's title's (the id of the " +
          'event that set it). Send it back in `If-None-Match` or `If-Match`.',
        schema: { type: 'string' },
        example: `"${EXAMPLE_EVENT_ID}"`,
      },
      Location: {
        description: 'Where the new item lives, in the list it was made in.',
        schema: { type: 'string' },
        example: `/api/todos/${EXAMPLE_ID}`,
      },
      Allow: { description: 'The methods the path serves.', schema: { type: 'string' } },
      RetryAfter: {
        description: 'Seconds to wait before trying again.',
        schema: { type: 'string' },
      },
    },
  };
}
