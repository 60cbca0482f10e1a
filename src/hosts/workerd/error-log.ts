import { loggedPath, pathOf, type ErrorReporter } from '../../http/router.ts';
import { base64UrlOf } from '../../lists/list-id.ts';

const encoder = new TextEncoder();

/** The path of `url` as Node logs it (docs/configuration.md, Logs); Web Crypto hashes async. */
async function loggedPathOf(url: string): Promise<string> {
  const path = pathOf(url);
  const listIds: string[] = [];
  loggedPath(path, (listId) => String(listIds.push(listId)));
  const hashes = listIds.map((listId) => crypto.subtle.digest('SHA-256', encoder.encode(listId)));
  const digests = await Promise.all(hashes);
  return loggedPath(path, () => base64UrlOf(new Uint8Array(digests.shift()!, 0, 6)));
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
