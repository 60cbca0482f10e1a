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
  #source: EventSource | undefined;
  #lastEventId: string | undefined;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly listener: LiveFeedListener,
    private readonly baseUrl = '',
  ) {}

  start(): void {
    this.listener.state('connecting');
    this.#connect();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#source?.close();
    this.#source = undefined;
  }

  #connect(): void {
    const resumeFrom = this.#lastEventId;
    const query =
      resumeFrom === undefined ? '' : `?${LAST_EVENT_ID_PARAM}=${encodeURIComponent(resumeFrom)}`;
    const source = new EventSource(`${this.baseUrl}${EVENTS_PATH}${query}`);
    this.#source = source;

    source.addEventListener('open', () => {
      this.#failures = 0;
      this.listener.state('open');
    });
    source.addEventListener('error', () => {
      this.listener.state('reconnecting');
      // A source opened with an id in its URL would resume from that stale id on its own
      // retry, so it is replaced instead, like one that gave up.
      if (source.readyState === EventSource.CLOSED || resumeFrom !== undefined) {
        source.close();
        this.#reconnectLater();
      }
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
