/** Entity tags as RFC 9110 section 8.8.3 compares them. */

/** A strong entity tag for an opaque version string. */
export function etagOf(version: string): string {
  return `"${version}"`;
}

function listedTags(header: string): string[] {
  return header.split(',').map((tag) => tag.trim());
}

/** `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`. */
export function noneMatch(header: string | null, etag: string): boolean {
  if (header === null) return true;
  if (header.trim() === '*') return false;
  return !listedTags(header).some((tag) => (tag.startsWith('W/') ? tag.slice(2) : tag) === etag);
}

/** `If-Match` uses the strong comparison: a weak tag never matches. */
export function ifMatch(header: string | null, etag: string): boolean {
  if (header === null || header.trim() === '*') return true;
  return listedTags(header).includes(etag);
}
