import type { IdentifiedEvent } from '../live/events.ts';
import { EventOrder } from './event-order.ts';
import { EventStream } from './event-stream.ts';
import { SharedLiveFeed } from './shared-live-feed.ts';
import type { TodoApi } from './todo-api.ts';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

export interface LiveFeedListener {
  event(event: IdentifiedEvent): void;
  state(state: ConnectionState): void;
}

/** The list's events and the state of the stream that brings them, for one tab. */
export interface LiveFeed {
  start(): void;
}

/**
 * The feed for this tab: the stream shared by all tabs of this origin where the browser can
 * elect one tab to hold it, else a stream of its own. A stream a tab never closes takes one of
 * the six connections a browser allows a host over HTTP/1.1, so six tabs with a stream each
 * leave a seventh unable to load.
 */
export function openLiveFeed(listener: LiveFeedListener, api: TodoApi): LiveFeed {
  // Web Locks exist only in secure contexts (https:, or http: on localhost).
  if (typeof navigator.locks?.request === 'function' && typeof BroadcastChannel === 'function') {
    return new SharedLiveFeed(listener, api, navigator.locks);
  }
  const order = new EventOrder((event) => listener.event(event));
  const stream = new EventStream({
    event: (event) => order.accept(event),
    state: (state) => listener.state(state),
  });
  return { start: () => stream.open() };
}
