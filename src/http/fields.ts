import { countCodePoints } from './code-points.ts';
import { pointerTo, type FieldError } from './problem.ts';

/**
 * Unknown keys named one error each; the rest are counted in one more. A body of thousands of
 * keys would otherwise be answered with an error per key, many times the body's own size.
 */
const MAX_NAMED_UNKNOWN_KEYS = 10;

/**
 * What `checkKey` says of one key of a body: `true` for a field checked elsewhere, `false` for
 * a key that is no field, or the error of a field it checked itself.
 */
export type KeyCheck = (key: string) => boolean | FieldError;

/**
 * The errors of the keys of `body`, in their order: each unknown one named (at most ten), and
 * those `checkKey` finds; `what` says what the body is of and which fields it may send, as in
 * "a to-do; send only title".
 */
export function keyErrors(
  body: Record<string, unknown>,
  checkKey: KeyCheck,
  what: { readonly noun: string; readonly fields: string },
): FieldError[] {
  const errors: FieldError[] = [];
  let unknownKeys = 0;
  for (const key of Object.keys(body)) {
    const checked = checkKey(key);
    if (checked === true) continue;
    if (checked !== false) {
      errors.push(checked);
      continue;
    }
    unknownKeys += 1;
    if (unknownKeys > MAX_NAMED_UNKNOWN_KEYS) continue;
    errors.push({
      pointer: pointerTo(key),
      detail: `${JSON.stringify(key)} is not a field of ${what.noun}; send only ${what.fields}.`,
    });
  }
  const unnamed = unknownKeys - MAX_NAMED_UNKNOWN_KEYS;
  if (unnamed > 0) {
    // The pointer "" is the whole body (RFC 6901): these keys are not named one by one.
    errors.push({
      pointer: '',
      detail: `${unnamed} more ${unnamed === 1 ? 'key is' : 'keys are'} not fields of ${what.noun}.`,
    });
  }
  return errors;
}

/** Why `title` is longer than `maxLength` code points, or undefined when it is not. */
export function titleLengthError(title: string, maxLength: number): string | undefined {
  // A string never has more code points than UTF-16 units, so most titles skip the count.
  if (title.length <= maxLength) return undefined;
  const codePoints = countCodePoints(title);
  if (codePoints <= maxLength) return undefined;
  return `title must be at most ${maxLength} characters long; it has ${codePoints}.`;
}

/**
 * The error for an `id` key in a body: refused on create, where the server chooses it, and
 * allowed on a replace when it repeats the path's, as clients send back what they got.
 */
export function checkIdField(value: unknown, intent: BodyIntent): true | FieldError {
  if (intent.kind === 'create') {
    return { pointer: '/id', detail: 'id is chosen by the server; leave it out.' };
  }
  if (value !== intent.id) {
    return { pointer: '/id', detail: `id must equal the id in the path, ${intent.id}.` };
  }
  return true;
}

/** POST makes something new; PUT replaces what is at `id`, and its body may repeat that id. */
export type BodyIntent =
  { readonly kind: 'create' } | { readonly kind: 'replace'; readonly id: string };
