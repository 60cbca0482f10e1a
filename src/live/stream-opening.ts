import { concatBytes } from '../http/bytes.ts';
import type { TodoStore } from '../todos/store.ts';
import {
  formatLiveEvent,
  LAST_EVENT_ID_PARAM,
  RECONNECT_DELAY_MS,
  type ChangeEvent,
  type SnapshotEvent,
} from './events.ts';

const encoder = new TextEncoder();
const RETRY = encoder.encode(`retry: ${RECONNECT_DELAY_MS}\n\n`);

/**
 * What a new stream starts with: the reconnect delay, then the changes a client resuming from
 * `lastEventId` missed, or the whole list when they are no longer kept (or it is new).
 */
export function openingFor(
  store: TodoStore,
  lastEventId: string | null,
  frameOf: (change: ChangeEvent) => Uint8Array,
): Uint8Array {
  const missed = lastEventId ? store.changesSince(lastEventId) : undefined;
  if (missed === undefined) {
    const snapshot: SnapshotEvent = { type: 'snapshot', id: store.version, todos: store.list() };
    return concatBytes([RETRY, encoder.encode(formatLiveEvent(snapshot))]);
  }
  return concatBytes([RETRY, ...missed.map(frameOf)]);
}

/** The header a reconnecting EventSource sends wins over the query of the URL it first used. */
export function lastEventIdOf(request: Request): string | null {
  return (
    request.headers.get('last-event-id') ||
    new URL(request.url).searchParams.get(LAST_EVENT_ID_PARAM) ||
    null
  );
}
