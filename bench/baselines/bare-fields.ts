import { MAX_TITLE_LENGTH, type FieldError } from './api-rules.ts';

export type Fields =
  | { readonly ok: true; readonly title: string; readonly completed: boolean }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

const hasOwn = (body: object, key: string) => Object.prototype.hasOwnProperty.call(body, key);

/**
 * A create (no `pathId`) or replace body, checked by hand: one error per problem, and only
 * known keys read, so `__proto__` is refused like any unknown key.
 */
export function parseFields(body: unknown, pathId?: string): Fields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ pointer: '', detail: 'The body must be a JSON object.' }] };
  }
  const record = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(record)) {
    if (key === 'title' || key === 'completed') continue;
    if (key === 'id' && pathId !== undefined && record.id === pathId) continue;
    errors.push({ pointer: `/${key}`, detail: `${key} is not a field of a to-do.` });
  }

  const title = hasOwn(record, 'title') ? record.title : undefined;
  if (typeof title !== 'string' || !/\S/u.test(title)) {
    errors.push({ pointer: '/title', detail: 'title must be a string with some text in it.' });
  } else if (title.length > MAX_TITLE_LENGTH && [...title].length > MAX_TITLE_LENGTH) {
    errors.push({ pointer: '/title', detail: `title must be at most ${MAX_TITLE_LENGTH} long.` });
  }

  const completed = hasOwn(record, 'completed')
    ? record.completed
    : pathId === undefined
      ? false
      : undefined;
  if (typeof completed !== 'boolean') {
    errors.push({ pointer: '/completed', detail: 'completed must be true or false.' });
  }

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, title: title as string, completed: completed as boolean };
}
