import { loggedPath, pathOf, type ErrorReporter } from '../../http/router.ts';
import { base64UrlOf } from '../../lists/list-id.ts';

/** A list's id as the log writes it, as on Node (docs/configuration.md, Logs). */
async function listTagOf(listId: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(listId));
  return base64UrlOf(new Uint8Array(digest, 0, 6));
}

/** The path of `url` without its query, each list's id a tag: Web Crypto hashes only async. */
async function loggedPathOf(url: string): Promise<string> {
  const path = pathOf(url);
  const listIds: string[] = [];
  loggedPath(path, (listId) => String(listIds.push(listId)));
  const tags = await Promise.all(listIds.map(listTagOf));
  return loggedPath(path, () => tags.shift()!);
}

/** Only the error's stack (docs/hosts.md, Logs): one thrown across RPC carries the list's id. */
export const reportError: ErrorReporter = (error, request, requestId) => {
  const stack = error instanceof Error ? (error.stack ?? String(error)) : error;
  if (request === undefined) return console.error('unexpected error:', stack);
  // A path no hash can be made of still gets its error logged, with no path.
  void loggedPathOf(request.url).then(
    (path) => console.error(`unexpected error: ${request.method} ${path} ${requestId}`, stack),
    () => console.error(`unexpected error: ${request.method} ${requestId}`, stack),
  );
};
