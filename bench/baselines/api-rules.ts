// What both baselines answer alike, as docs/api.md has it: headers, limits, error bodies.

export const API_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, ETag',
  'cache-control': 'no-store',
} as const;

const preflight = (methods: string) => ({
  ...API_HEADERS,
  'access-control-allow-methods': methods,
  'access-control-allow-headers': 'Content-Type',
  'access-control-max-age': '86400',
});
export const COLLECTION_PREFLIGHT = preflight('GET, POST, OPTIONS');
export const ITEM_PREFLIGHT = preflight('PUT, DELETE, OPTIONS');
export const COLLECTION_ALLOW = 'GET, HEAD, POST, OPTIONS';
export const ITEM_ALLOW = 'GET, HEAD, PUT, DELETE, OPTIONS';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

export const MAX_BODY_BYTES = 16384;
export const MAX_TITLE_LENGTH = 1000;
const MAX_NAME_LENGTH = 100;

export interface FieldError {
  readonly pointer: string;
  readonly detail: string;
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  507: 'Insufficient Storage',
};

/** An RFC 9457 problem body. */
export function problemBody(status: number, detail: string, errors?: readonly FieldError[]) {
  return JSON.stringify({
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    ...(errors && { errors }),
  });
}

const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim());

/** `If-None-Match` names the current version (weak comparison). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return tagsOf(ifNoneMatch).some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag);
}

/** `If-Match` is absent, `*`, or names the current version (strong comparison). */
export function ifMatchAllows(ifMatch: string | undefined, etag: string): boolean {
  return ifMatch === undefined || ifMatch.trim() === '*' || tagsOf(ifMatch).includes(etag);
}

/** `GET /hello?name=`: the greeting, or undefined when the name is too long. */
export function greeting(name: string | null | undefined): string | undefined {
  const trimmed = name?.trim() ?? '';
  if ([...trimmed].length > MAX_NAME_LENGTH) return undefined;
  return `Hello, ${trimmed || 'world'}!`;
}
