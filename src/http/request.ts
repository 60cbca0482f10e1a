import { HttpProblem } from './problem.ts';

// Ids a client may choose: short, and only characters a URI holds unescaped, so the id is also
// a valid URI reference for a problem's `instance` and safe in a log line.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]{1,128}$/;

/** The id a request is known by: the client's `X-Request-Id` when acceptable, else a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given !== null && CLIENT_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

export const IDEMPOTENCY_KEY = 'Idempotency-Key';

const MAX_KEY_LENGTH = 255;
const EXPECTED_KEY =
  `${IDEMPOTENCY_KEY} must be one Structured Field string of 1 to ${MAX_KEY_LENGTH} ` +
  'printable ASCII characters, such as "8e0f6c1a" in double quotes (\\" and \\\\ escaped), or an ' +
  'unquoted token such as a UUID, with no parameters; send it once.';

// RFC 8941, section 3.3.3: an sf-string, its characters printable ASCII.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
// An sf-token's characters (section 3.3.4), from the first on: an sf-token may not start with
// a digit, but a UUID often does, and clients send UUIDs unquoted.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]+$/;

/** The request's `Idempotency-Key`, or undefined; a 400 for any other form, a list included. */
export function idempotencyKeyOf(request: Request): string | undefined {
  // Headers drop the white space around a value, as RFC 8941 parsing does.
  const value = request.headers.get(IDEMPOTENCY_KEY);
  if (value === null) return undefined;
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : TOKEN.test(value) && value;
  if (!key) throw new HttpProblem(400, `${EXPECTED_KEY} It was empty or of another form.`);
  if (key.length > MAX_KEY_LENGTH) {
    throw new HttpProblem(400, `${EXPECTED_KEY} It had ${key.length} characters.`);
  }
  return key;
}

// Entity tags: a version's is strong; they are compared as RFC 9110 section 13.1 says.

export function etagOf(version: string): string {
  return `"${version}"`;
}

function listedTags(header: string): string[] {
  return header.split(',').map((tag) => tag.trim());
}

/** Whether `If-None-Match` names `etag`, so a GET answers 304: the weak comparison. */
export function isNotModified(request: Request, etag: string): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return listedTags(ifNoneMatch).some(
    (tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag,
  );
}

/** 412 unless `If-Match` is absent, `*` or `etag` (strong comparison); `what` is, say, "to-do". */
export function requireIfMatch(request: Request, etag: string, what: string): void {
  const ifMatch = request.headers.get('if-match');
  if (ifMatch === null || ifMatch.trim() === '*' || listedTags(ifMatch).includes(etag)) return;
  throw new HttpProblem(
    412,
    `The ${what} has changed since the version named in If-Match; fetch it again and retry.`,
  );
}
