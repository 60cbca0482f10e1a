import type { IRequest } from 'itty-router';
import { HttpProblem } from './problem.ts';

/** The request header that makes a create safe to retry (docs/api.md, Idempotency-Key). */
export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** The longest key taken, in characters. */
export const MAX_KEY_LENGTH = 255;

const EXPECTED =
  `${IDEMPOTENCY_KEY} must be one Structured Field string of 1 to ${MAX_KEY_LENGTH} ` +
  'printable ASCII characters, such as "8e0f…" in double quotes (\\" and \\\\ escaped), or an ' +
  'unquoted token such as a UUID, with no parameters; send it once.';

// RFC 8941, section 3.3.3: an sf-string, its characters printable ASCII.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
// An sf-token's characters (section 3.3.4), from the first on: an sf-token may not start with
// a digit, but a UUID often does, and clients send UUIDs unquoted.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]+$/;

/**
 * The request's `Idempotency-Key`, undefined when it sends none, or a 400 naming the form
 * expected: an empty value, one too long, one not ASCII, a list (two header lines are
 * combined into one), or one with parameters. A token is read as the string of its characters.
 */
export function idempotencyKeyOf(request: IRequest | Request): string | undefined {
  // Headers drop the white space around a value, as RFC 8941 parsing does.
  const value = request.headers.get(IDEMPOTENCY_KEY);
  if (value === null) return undefined;
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : TOKEN.test(value) && value;
  if (!key) throw new HttpProblem(400, `${EXPECTED} It was empty or of another form.`);
  if (key.length > MAX_KEY_LENGTH) {
    throw new HttpProblem(400, `${EXPECTED} It had ${key.length} characters.`);
  }
  return key;
}
