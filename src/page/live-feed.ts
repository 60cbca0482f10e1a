import {
  EVENTS_PATH,
  LAST_EVENT_ID_PARAM,
  LIVE_EVENT_TYPES,
  RECONNECT_DELAY_MS,
  readLiveEvent,
  type LiveEvent,
} from '../live/events.ts';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

export interface LiveFeedListener {
  event(event: LiveEvent): void;
  state(state: ConnectionState): void;
}

const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * The event stream of the list, kept open. After a dropped connection EventSource reconnects
 * by itself and sends `Last-Event-ID`, so the server replays what was missed. After a refused
 * one (an HTTP error) it gives up; then a new EventSource is opened after a delay, with the
 * last id in the query, since a new EventSource cannot set that header.
 */
export class LiveFeed {
  #lastEventId: string | undefined;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly listener: LiveFeedListener) {}

  start(): void {
    this.listener.state('connecting');
    this.#connect();
  }

  #connect(): void {
    // On its own retries EventSource sends the newer Last-Event-ID header, which the server
    // prefers to this query.
    const query =
      this.#lastEventId === undefined
        ? ''
        : `?${LAST_EVENT_ID_PARAM}=${encodeURIComponent(this.#lastEventId)}`;
    const source = new EventSource(`${EVENTS_PATH}${query}`);

    source.addEventListener('open', () => {
      this.#failures = 0;
      this.listener.state('open');
    });
    source.addEventListener('error', () => {
      this.listener.state('reconnecting');
      if (source.readyState === EventSource.CLOSED) this.#reconnectLater();
    });
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (message: MessageEvent<string>) => {
        const event = readLiveEvent(type, message.lastEventId, message.data);
        if (event === undefined) return;
        this.#lastEventId = event.id;
        this.listener.event(event);
      });
    }
  }

  #reconnectLater(): void {
    const delay = Math.min(RECONNECT_DELAY_MS * 2 ** this.#failures, MAX_RECONNECT_DELAY_MS);
    this.#failures += 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#connect(), delay);
  }
}
