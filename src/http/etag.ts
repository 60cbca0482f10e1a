// Entity tags, compared as RFC 9110 section 13.1 says.

import { HttpProblem } from './problem.ts';

/** A strong entity tag for an opaque version string. */
export function etagOf(version: string): string {
  return `"${version}"`;
}

function listedTags(header: string): string[] {
  return header.split(',').map((tag) => tag.trim());
}

/**
 * Whether `If-None-Match` names the current version, so a GET answers 304. It uses the weak
 * comparison: `W/"x"` names `"x"`.
 */
export function isNotModified(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return listedTags(ifNoneMatch).some(
    (tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag,
  );
}

/**
 * Whether a change may go ahead under `If-Match`: absent, `*`, or naming the current version.
 * It uses the strong comparison, so a weak tag never matches.
 */
export function ifMatchAllows(ifMatch: string | null, etag: string): boolean {
  if (ifMatch === null || ifMatch.trim() === '*') return true;
  return listedTags(ifMatch).includes(etag);
}

/**
 * Refuses with 412 a change whose `If-Match` does not allow it; `what` names what changed, as
 * in "the to-do".
 */
export function requireIfMatch(request: Request, etag: string, what: string): void {
  if (!ifMatchAllows(request.headers.get('if-match'), etag)) {
    throw new HttpProblem(
      412,
      `The ${what} has changed since the version named in If-Match; fetch it again and retry.`,
    );
  }
}
