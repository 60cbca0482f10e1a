import type { Routes } from '../handler.ts';
import { preflightHeaders } from '../http/cors.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';
import type { ListBase } from '../lists/list-bases.ts';

/**
 * A list's event stream, `GET /api/sse` for the default list and `GET /api/lists/{id}/sse` for
 * a named one (docs/api.md, Live updates). HEAD is refused: a stream has no end to measure. A
 * cross-origin client that sends `Last-Event-ID` itself (not EventSource, which may) needs a
 * preflight that allows it.
 */
export function addEventRoutes(router: Routes, bases: readonly ListBase[]) {
  const preflight = preflightHeaders('GET, OPTIONS', 'Last-Event-ID');
  for (const { prefix, listOf } of bases) {
    const path = `${prefix}/sse`;
    router
      .get(path, (request, responses) =>
        responses.eventStream(listOf(request).events.open(request)),
      )
      .options(path, (_request, responses) => responses.apiEmpty(204, preflight))
      .all(path, methodNotAllowed('GET, OPTIONS'));
  }
}
