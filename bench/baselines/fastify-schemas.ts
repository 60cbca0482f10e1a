import { MAX_TITLE_LENGTH } from './api-rules.ts';

// As Fastify's guides have it: bodies checked, and answers serialised, by JSON schema.
const TITLE = { type: 'string', pattern: '\\S', maxLength: MAX_TITLE_LENGTH } as const;
export const ITEM_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'string' }, title: { type: 'string' }, completed: { type: 'boolean' } },
  required: ['id', 'title', 'completed'],
  additionalProperties: false,
} as const;
export const NOTHING = { type: 'null' } as const;
export const CREATE_BODY = {
  type: 'object',
  properties: { title: TITLE, completed: { type: 'boolean', default: false } },
  required: ['title'],
  additionalProperties: false,
} as const;
export const REPLACE_BODY = {
  type: 'object',
  properties: { id: { type: 'string' }, title: TITLE, completed: { type: 'boolean' } },
  required: ['title', 'completed'],
  additionalProperties: false,
} as const;
