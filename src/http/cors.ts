/**
 * CORS headers are set where each response is made, never copied on afterwards: itty-router's
 * `corsify` rebuilds every response (turning 201 into 200) and costs a copy per request.
 */
export const API_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, ETag',
} as const;

/** Preflight answers, per route, as SPEC.md's table gives them. */
export function preflightHeaders(
  allowMethods: string,
  allowHeaders = 'Content-Type',
): Record<string, string> {
  return {
    ...API_CORS_HEADERS,
    'access-control-allow-methods': allowMethods,
    'access-control-allow-headers': allowHeaders,
    'access-control-max-age': '86400',
  };
}

/** Responses under `/api/` carry CORS headers, errors included. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}
