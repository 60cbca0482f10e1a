import type { JsonObject } from '../http/body.ts';
import { HttpProblem, type FieldError } from '../http/problem.ts';
import type { TodoFields } from '../model/resources.ts';

// Unknown keys past these share one error, so that a body of thousands gets a short answer.
const MAX_NAMED_UNKNOWN_KEYS = 10;
const NON_WHITESPACE = /\S/u;
const TODO_TITLE_MISSING = 'title is required: a string with some text in it.';
const LIST_TITLE_MISSING = 'title is required: a string, which may be empty.';

/** A to-do's fields, or a 400 naming each problem; `pathId` is a PUT's, and a POST has none. */
export function todoFieldsOf(
  body: JsonObject,
  maxTitleLength: number,
  pathId?: string,
): TodoFields {
  const errors = keyErrors(body, ['title', 'completed'], 'a to-do', pathId);
  const title = ownField(body, 'title');
  const titleError = titleErrorOf(title, maxTitleLength, TODO_TITLE_MISSING);
  if (titleError) errors.push({ pointer: '/title', detail: titleError });
  const given = ownField(body, 'completed');
  const completed = given === undefined && pathId === undefined ? false : given;
  if (completed === undefined) {
    errors.push({ pointer: '/completed', detail: 'completed is required: true or false.' });
  } else if (typeof completed !== 'boolean') {
    errors.push({ pointer: '/completed', detail: 'completed must be true or false.' });
  }
  refuseIfAny(errors);
  return { title: title as string, completed: completed as boolean };
}

/** A list's title, maybe empty, or a 400 naming each problem; a create may leave it out. */
export function listTitleOf(body: JsonObject, maxTitleLength: number, pathId?: string): string {
  const errors = keyErrors(body, ['title'], 'a list', pathId);
  const title = ownField(body, 'title');
  const missing = pathId === undefined ? undefined : LIST_TITLE_MISSING;
  const titleError = titleErrorOf(title, maxTitleLength, missing, true);
  if (titleError) errors.push({ pointer: '/title', detail: titleError });
  refuseIfAny(errors);
  return (title as string | undefined) ?? '';
}

/** The body's own `key`, never a prototype's. */
function ownField(body: JsonObject, key: string): unknown {
  return Object.hasOwn(body, key) ? body[key] : undefined;
}

/** The first problem of `title`; `missing` is the one of a body without it. */
function titleErrorOf(title: unknown, maxLength: number, missing?: string, mayBeBlank = false) {
  if (title === undefined) return missing;
  if (typeof title !== 'string') return 'title must be a string.';
  if (!mayBeBlank && !NON_WHITESPACE.test(title)) {
    return 'title must contain at least one non-space character.';
  }
  return lengthError('title', title, maxLength);
}

function refuseIfAny(errors: FieldError[]): void {
  if (errors.length > 0) {
    throw new HttpProblem(400, errors.map((error) => error.detail).join(' '), { errors });
  }
}

// The errors of the keys that are not `fields`, in order: the unknown ones, and an `id`, which
// the server chooses, allowed only on a PUT that repeats the path's, as clients echo it.
function keyErrors(body: JsonObject, fields: readonly string[], noun: string, pathId?: string) {
  const errors: FieldError[] = [];
  let unknownKeys = 0;
  for (const key of Object.keys(body)) {
    if (fields.includes(key)) continue;
    if (key === 'id') {
      if (pathId === undefined) {
        errors.push({ pointer: '/id', detail: 'id is chosen by the server; leave it out.' });
      } else if (body.id !== pathId) {
        errors.push({ pointer: '/id', detail: `id must equal the id in the path, ${pathId}.` });
      }
      continue;
    }
    unknownKeys += 1;
    if (unknownKeys > MAX_NAMED_UNKNOWN_KEYS) continue;
    errors.push({
      // The key as one JSON Pointer segment (RFC 6901).
      pointer: '/' + key.replaceAll('~', '~0').replaceAll('/', '~1'),
      detail: `${JSON.stringify(key)} is not a field of ${noun}; send only ${fields.join(' and ')}.`,
    });
  }
  const unnamed = unknownKeys - MAX_NAMED_UNKNOWN_KEYS;
  if (unnamed > 0) {
    // The pointer "" is the whole body (RFC 6901).
    errors.push({
      pointer: '',
      detail: `${unnamed} more ${unnamed === 1 ? 'key is' : 'keys are'} not fields of ${noun}.`,
    });
  }
  return errors;
}

/** The error of a `field` longer than `maxLength` code points (a surrogate pair is one). */
export function lengthError(field: string, text: string, maxLength: number): string | undefined {
  // A string never has more code points than UTF-16 units, so most texts skip the count.
  if (text.length <= maxLength) return undefined;
  let codePoints = 0;
  for (const _ of text) codePoints += 1;
  if (codePoints > maxLength) {
    return `${field} must be at most ${maxLength} characters long; it has ${codePoints}.`;
  }
  return undefined;
}
