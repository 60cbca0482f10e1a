import type { IRequest } from 'itty-router';
import { HttpProblem } from './problem.ts';

/** The request header that makes a create safe to retry (docs/api.md, Idempotency-Key). */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** The longest key taken, in characters. */
export const MAX_KEY_LENGTH = 255;

const EXPECTED =
  `${IDEMPOTENCY_KEY} must be one Structured Field string of 1 to ${MAX_KEY_LENGTH} ` +
  'printable ASCII characters, such as "8e0f…" in double quotes (\\" and \\\\ escaped), or an ' +
  'unquoted token, with no parameters; send it once.';

// RFC 8941, sections 3.3.3 and 3.3.4: an sf-string's characters, and an sf-token.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
const SF_TOKEN = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*$/;

/**
 * The request's `Idempotency-Key`, undefined when it sends none, or a 400 naming the form
 * expected: an empty value, one too long, one not ASCII, a list (two header lines are
 * combined into one), or one with parameters.
 */
export function idempotencyKeyOf(request: IRequest | Request): string | undefined {
  const field = request.headers.get(IDEMPOTENCY_KEY);
  if (field === null) return undefined;
  // RFC 8941 parsing drops the spaces around a field value; the Headers API drops tabs too.
  const value = field.replace(/^ +| +$/g, '');
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : SF_TOKEN.test(value) && value;
  if (!key) throw new HttpProblem(400, `${EXPECTED} It was empty or of another form.`);
  if (key.length > MAX_KEY_LENGTH) {
    throw new HttpProblem(400, `${EXPECTED} It had ${key.length} characters.`);
  }
  return key;
}
