import { checkIdField, keyErrors, titleLengthError, type BodyIntent } from '../http/fields.ts';
import type { FieldError } from '../http/problem.ts';
import type { TodoFields } from './todo.ts';

export type { BodyIntent };

export type ParsedFields =
  | { readonly ok: true; readonly fields: TodoFields }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

const hasOwn = Object.prototype.hasOwnProperty;
const NON_WHITESPACE = /\S/u;
const TODO_FIELDS = { noun: 'a to-do', fields: 'title and completed' };

/**
 * Checks a parsed body against the rules of a to-do, collecting one error per problem.
 * It reads only the keys it knows, so keys such as `__proto__` are reported, never applied.
 */
export function parseTodoFields(
  body: Record<string, unknown>,
  intent: BodyIntent,
  maxTitleLength: number,
): ParsedFields {
  const errors = keyErrors(
    body,
    (key) =>
      key === 'title' || key === 'completed' || (key === 'id' && checkIdField(body.id, intent)),
    TODO_FIELDS,
  );

  const title = hasOwn.call(body, 'title') ? body.title : undefined;
  const titleError = checkTitle(title, maxTitleLength);
  if (titleError) errors.push({ pointer: '/title', detail: titleError });

  let completed = hasOwn.call(body, 'completed') ? body.completed : undefined;
  if (completed === undefined && intent.kind === 'create') completed = false;
  if (typeof completed !== 'boolean') {
    errors.push({
      pointer: '/completed',
      detail:
        completed === undefined
          ? 'completed is required: true or false.'
          : 'completed must be true or false.',
    });
  }

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, fields: { title: title as string, completed: completed as boolean } };
}

function checkTitle(title: unknown, maxLength: number): string | undefined {
  if (title === undefined) return 'title is required: a string with some text in it.';
  if (typeof title !== 'string') return 'title must be a string.';
  if (!NON_WHITESPACE.test(title)) return 'title must contain at least one non-space character.';
  return titleLengthError(title, maxLength);
}
