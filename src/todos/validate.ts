import { countCodePoints } from '../code-points.ts';
import { pointerTo, type FieldError } from '../http/problem.ts';
import type { TodoFields } from './todo.ts';

export type ParsedFields =
  | { readonly ok: true; readonly fields: TodoFields }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** POST makes a new item; PUT replaces the one at `id`, and its body may repeat that id. */
export type BodyIntent =
  { readonly kind: 'create' } | { readonly kind: 'replace'; readonly id: string };

const hasOwn = Object.prototype.hasOwnProperty;
const NON_WHITESPACE = /\S/u;
/**
 * Unknown keys named one error each; the rest are counted in one more. A body of thousands of
 * keys would otherwise be answered with an error per key, many times the body's own size.
 */
const MAX_NAMED_UNKNOWN_KEYS = 10;

/**
 * Checks a parsed body against the rules of a to-do, collecting one error per problem.
 * It reads only the keys it knows, so keys such as `__proto__` are reported, never applied.
 */
export function parseTodoFields(
  body: Record<string, unknown>,
  intent: BodyIntent,
  maxTitleLength: number,
): ParsedFields {
  const errors: FieldError[] = [];
  let unknownKeys = 0;

  for (const key of Object.keys(body)) {
    if (key === 'title' || key === 'completed') continue;
    if (key === 'id') {
      if (intent.kind === 'create') {
        errors.push({ pointer: '/id', detail: 'id is chosen by the server; leave it out.' });
      } else if (body.id !== intent.id) {
        errors.push({ pointer: '/id', detail: `id must equal the id in the path, ${intent.id}.` });
      }
      continue;
    }
    unknownKeys += 1;
    if (unknownKeys > MAX_NAMED_UNKNOWN_KEYS) continue;
    errors.push({
      pointer: pointerTo(key),
      detail: `${JSON.stringify(key)} is not a field of a to-do; send only title and completed.`,
    });
  }
  const unnamed = unknownKeys - MAX_NAMED_UNKNOWN_KEYS;
  if (unnamed > 0) {
    // The pointer "" is the whole body (RFC 6901): these keys are not named one by one.
    errors.push({
      pointer: '',
      detail: `${unnamed} more ${unnamed === 1 ? 'key is' : 'keys are'} not fields of a to-do.`,
    });
  }

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
  // A string never has more code points than UTF-16 units, so most titles skip the count.
  if (title.length > maxLength) {
    const codePoints = countCodePoints(title);
    if (codePoints > maxLength) {
      return `title must be at most ${maxLength} characters long; it has ${codePoints}.`;
    }
  }
  return undefined;
}
