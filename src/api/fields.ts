import { HttpProblem, pointerTo, type FieldError } from '../http/problem.ts';
import type { TodoFields } from '../model/resources.ts';

/** POST makes something new; PUT replaces what is at `id`, and its body may repeat that id. */
export type BodyIntent =
  { readonly kind: 'create' } | { readonly kind: 'replace'; readonly id: string };

/**
 * Unknown keys named one error each; the rest are counted in one more. A body of thousands of
 * keys would otherwise be answered with an error per key, many times the body's own size.
 */
const MAX_NAMED_UNKNOWN_KEYS = 10;
const NON_WHITESPACE = /\S/u;

/**
 * Checks a parsed body against the rules of a to-do, collecting one error per problem, and
 * refuses it with 400 naming each. It reads only the keys it knows, so keys such as
 * `__proto__` are reported, never applied.
 */
export function todoFieldsOf(
  body: Record<string, unknown>,
  intent: BodyIntent,
  maxTitleLength: number,
): TodoFields {
  const errors = keyErrors(body, ['title', 'completed'], intent, 'a to-do');
  const own = ownFields(body);
  const { title } = own;
  let { completed } = own;
  let titleError: string | undefined;
  if (title === undefined) titleError = 'title is required: a string with some text in it.';
  else if (typeof title !== 'string') titleError = 'title must be a string.';
  else if (!NON_WHITESPACE.test(title)) {
    titleError = 'title must contain at least one non-space character.';
  } else titleError = titleLengthError(title, maxTitleLength);
  if (titleError) errors.push({ pointer: '/title', detail: titleError });

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
  refuseIfAny(errors);
  return { title: title as string, completed: completed as boolean };
}

/**
 * The title a list body sets: the body's only field, `title`, a string of at most
 * `maxTitleLength` code points, empty allowed. A create may leave it out (an untitled list);
 * a rename may not. A body that breaks a rule is a 400 naming each problem.
 */
export function listTitleOf(
  body: Record<string, unknown>,
  intent: BodyIntent,
  maxTitleLength: number,
): string {
  const errors = keyErrors(body, ['title'], intent, 'a list');
  const { title } = ownFields(body);
  let titleError: string | undefined;
  if (title === undefined) {
    if (intent.kind === 'replace') titleError = 'title is required: a string, which may be empty.';
  } else if (typeof title !== 'string') titleError = 'title must be a string.';
  else titleError = titleLengthError(title, maxTitleLength);
  if (titleError) errors.push({ pointer: '/title', detail: titleError });
  refuseIfAny(errors);
  return (title as string | undefined) ?? '';
}

/** The body's own `title` and `completed`, never a prototype's. */
function ownFields(body: Record<string, unknown>): { title?: unknown; completed?: unknown } {
  return {
    title: Object.hasOwn(body, 'title') ? body.title : undefined,
    completed: Object.hasOwn(body, 'completed') ? body.completed : undefined,
  };
}

function refuseIfAny(errors: FieldError[]): void {
  if (errors.length > 0) {
    throw new HttpProblem(400, errors.map((error) => error.detail).join(' '), { errors });
  }
}

/**
 * The errors of the keys of `body` that are not `fields`, in their order: each unknown one named
 * (at most ten), and an `id`, refused on create, where the server chooses it, and allowed on a
 * replace when it repeats the path's, as clients send back what they got.
 */
function keyErrors(
  body: Record<string, unknown>,
  fields: readonly string[],
  intent: BodyIntent,
  noun: string,
): FieldError[] {
  const errors: FieldError[] = [];
  let unknownKeys = 0;
  for (const key of Object.keys(body)) {
    if (fields.includes(key)) continue;
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
      detail: `${JSON.stringify(key)} is not a field of ${noun}; send only ${fields.join(' and ')}.`,
    });
  }
  const unnamed = unknownKeys - MAX_NAMED_UNKNOWN_KEYS;
  if (unnamed > 0) {
    // The pointer "" is the whole body (RFC 6901): these keys are not named one by one.
    errors.push({
      pointer: '',
      detail: `${unnamed} more ${unnamed === 1 ? 'key is' : 'keys are'} not fields of ${noun}.`,
    });
  }
  return errors;
}

/** Why `title` is longer than `maxLength` code points, or undefined when it is not. */
function titleLengthError(title: string, maxLength: number): string | undefined {
  // A string never has more code points than UTF-16 units, so most titles skip the count.
  if (title.length <= maxLength) return undefined;
  const codePoints = countCodePoints(title);
  if (codePoints <= maxLength) return undefined;
  return `title must be at most ${maxLength} characters long; it has ${codePoints}.`;
}

/**
 * The length of `text` in Unicode code points, as limits on names and titles count it: an
 * emoji outside the Basic Multilingual Plane is one character, not two UTF-16 units.
 */
export function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
