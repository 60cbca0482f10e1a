/**
 * CORS headers are set where each response is made, never copied on afterwards: itty-router's
 * `corsify` builds a new response for every answer, a copy per request on the hot path.
 */
export const ALLOW_ORIGIN = '*';
export const EXPOSE_HEADERS = 'Location, ETag';

/** The headers a preflight adds to those of every API answer, per route (docs/api.md, CORS). */
export function preflightHeaders(
  allowMethods: string,
  allowHeaders = 'Content-Type',
): Record<string, string> {
  return {
    'access-control-allow-methods': allowMethods,
    'access-control-allow-headers': allowHeaders,
    'access-control-max-age': '86400',
  };
}

/** Responses under `/api/` carry CORS headers, errors included. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}
