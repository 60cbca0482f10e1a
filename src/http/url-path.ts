/** Where the path of an absolute URL starts: its first "/" after the "//"; -1 when it has none. */
export function pathStart(url: string): number {
  return url.indexOf('/', url.indexOf('//') + 2);
}

/** The path from `start` (as `pathStart` finds it) to the query; "/" when there is none. */
export function pathAt(url: string, start: number): string {
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/**
 * The path of a request URL without its query, found without parsing, so it works even for
 * a URL that `new URL` refuses, and never logs what a query may hold.
 */
export function pathOf(url: string): string {
  return pathAt(url, pathStart(url));
}
