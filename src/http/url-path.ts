/**
 * The path of a request URL without its query, found without parsing, so it works even for
 * a URL that `new URL` refuses, and never logs what a query may hold.
 */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}
