import type { AppConfig } from '../config.ts';

const EXAMPLE_LIST_ID = 'Xq4t2fZkR0aW9mN3pL8cVg';

/** The schemas, parameter and headers of named lists. */
export function listComponents(limits: AppConfig['limits']) {
  const listTitle = {
    type: 'string',
    maxLength: limits.maxTitleLength,
    description:
      `At most ${limits.maxTitleLength} Unicode code points (\`limits.maxTitleLength\`); ` +
      'may be empty; stored exactly as sent.',
  };

  return {
    schemas: {
      List: {
        type: 'object',
        required: ['id', 'title'],
        additionalProperties: false,
        properties: {
          id: {
            type: 'string',
            pattern: '^[A-Za-z0-9_-]{22,}$',
            description: 'Made by the server: at least 128 random bits, in base64url.',
          },
          title: { type: 'string' },
        },
        examples: [{ id: EXAMPLE_LIST_ID, title: 'Groceries' }],
      },
      NewList: {
        type: 'object',
        additionalProperties: false,
        properties: { title: { ...listTitle, default: '' } },
        examples: [{ title: 'Groceries' }],
      },
      ListRename: {
        type: 'object',
        required: ['title'],
        additionalProperties: false,
        properties: {
          title: listTitle,
          id: {
            type: 'string',
            description: "Allowed so a client can send back what it got; must be the path's id.",
          },
        },
        examples: [{ title: 'Weekend groceries' }],
      },
    },
    parameters: {
      ListId: {
        name: 'listId',
        in: 'path',
        required: true,
        description:
          "A named list's id, as `POST /api/lists` gave it. One that names no list, whether it " +
          'was never made, was deleted or is not an id, is 404, the same in every case.',
        schema: { type: 'string' },
        example: EXAMPLE_LIST_ID,
      },
    },
    headers: {
      ListPage: {
        description: 'The page of the list, to open in a browser and to share.',
        schema: { type: 'string' },
        example: `</lists/${EXAMPLE_LIST_ID}>; rel="alternate"; type="text/html"`,
      },
      ListLocation: {
        description: 'Where the new list lives.',
        schema: { type: 'string' },
        example: `/api/lists/${EXAMPLE_LIST_ID}`,
      },
    },
  };
}
