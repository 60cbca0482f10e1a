import type { RouterType } from 'itty-router';
import { preflightHeaders } from '../http/cors.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/routing.ts';
import { EVENTS_PATH } from './events.ts';
import type { EventStreams } from './event-streams.ts';

/**
 * `GET /api/sse` (docs/api.md, Live updates). HEAD is refused: a stream has no end to measure.
 * A cross-origin client that sends `Last-Event-ID` itself (not EventSource, which may) needs a
 * preflight that allows it.
 */
export function addEventRoutes(router: RouterType, streams: EventStreams, responses: Responses) {
  const preflight = preflightHeaders('GET, OPTIONS', 'Last-Event-ID');
  router
    .get(EVENTS_PATH, (request) => responses.eventStream(streams.open(request)))
    .options(EVENTS_PATH, () => responses.apiEmpty(204, preflight))
    .all(EVENTS_PATH, methodNotAllowed('GET, OPTIONS'));
}
