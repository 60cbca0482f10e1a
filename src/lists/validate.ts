import { checkIdField, keyErrors, titleLengthError, type BodyIntent } from '../http/fields.ts';
import { HttpProblem } from '../http/problem.ts';

const LIST_FIELDS = { noun: 'a list', fields: 'title' };

/**
 * The title a list body sets: the body's only field, `title`, a string of at most
 * `maxTitleLength` code points, empty allowed. A create may leave it out (an untitled list);
 * a rename may not. A body that breaks a rule is a 400 naming each problem.
 */
export function parseListTitle(
  body: Record<string, unknown>,
  intent: BodyIntent,
  maxTitleLength: number,
): string {
  const errors = keyErrors(
    body,
    (key) => key === 'title' || (key === 'id' && checkIdField(body.id, intent)),
    LIST_FIELDS,
  );
  const title = Object.hasOwn(body, 'title') ? body.title : undefined;
  let titleError: string | undefined;
  if (title === undefined) {
    if (intent.kind === 'replace') titleError = 'title is required: a string, which may be empty.';
  } else if (typeof title !== 'string') {
    titleError = 'title must be a string.';
  } else {
    titleError = titleLengthError(title, maxTitleLength);
  }
  if (titleError) errors.push({ pointer: '/title', detail: titleError });
  if (errors.length > 0) {
    throw new HttpProblem(400, errors.map((error) => error.detail).join(' '), { errors });
  }
  return (title as string | undefined) ?? '';
}
