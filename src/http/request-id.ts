export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Ids a client may choose: short, and made only of characters a URI may hold unescaped, so
 * the id is also a valid URI reference for a problem's `instance` and safe in a log line.
 */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]{1,128}$/;

/** The id a request is known by: the client's `X-Request-Id` when acceptable, else a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get(REQUEST_ID_HEADER);
  return given !== null && CLIENT_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}
