import {
  LAST_EVENT_ID_PARAM,
  LIVE_EVENT_TYPES,
  RECONNECT_DELAY_MS,
  readLiveEvent,
  type IdentifiedEvent,
} from '../model/events.ts';
import type { ListPaths } from '../model/resources.ts';

const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * The state of the list's stream. `gone`: the list was deleted, or never existed; the feed
 * has stopped for good.
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'gone';

export interface LiveFeedListener {
  event(event: IdentifiedEvent): void;
  state(state: ConnectionState): void;
}

/** The list a feed follows. */
export interface FeedList {
  readonly paths: ListPaths;
  /**
   * Whether the list is still there: false once deleted; rejects when the service cannot say.
   * Absent for the default list, which cannot be deleted.
   */
  readonly exists?: () => Promise<boolean>;
}

/** The list's events and the state of the stream that brings them, for one tab. */
export interface LiveFeed {
  /** Whether this tab holds the list's stream: the one tab that sends the list's queued edits. */
  readonly leads: boolean;
  start(): void;
  /** The list is gone, as a request of this tab found: stops, and tells the other tabs. */
  end(): void;
}

/**
 * One `EventSource` on the list, kept open until closed. After a dropped connection
 * EventSource reconnects by itself and sends `Last-Event-ID`, so the server replays what was
 * missed. After a refused one (an HTTP error) it gives up; then a new EventSource is opened
 * after a delay, with the last id in the query, since a new EventSource cannot set that header.
 * A deleted list's stream ends with `list-deleted`, and is refused (404) from then on: either
 * way the stream stops for good, in state `gone`.
 */
export class EventStream {
  #source: EventSource | undefined;
  #lastEventId: string | undefined;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly listener: LiveFeedListener,
    private readonly list: FeedList,
  ) {}

  /** Opens the stream, resuming after `lastEventId` when given. */
  open(lastEventId?: string): void {
    this.close();
    this.#lastEventId = lastEventId;
    this.#failures = 0;
    this.listener.state('connecting');
    this.#connect();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#source?.close();
    this.#source = undefined;
  }

  #connect(): void {
    // On its own retries EventSource sends the newer Last-Event-ID header, which the server
    // prefers to this query.
    const query =
      this.#lastEventId === undefined
        ? ''
        : `?${LAST_EVENT_ID_PARAM}=${encodeURIComponent(this.#lastEventId)}`;
    const source = new EventSource(`${this.list.paths.sse}${query}`);
    this.#source = source;

    source.addEventListener('open', () => {
      this.#failures = 0;
      this.listener.state('open');
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) this.#refused(source);
      else this.listener.state('reconnecting');
    });
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (message: MessageEvent<string>) => {
        const event = readLiveEvent(type, message.lastEventId, message.data);
        if (event === undefined) return;
        // Closed at once, before EventSource reconnects to a stream that is no more.
        if (event.type === 'list-deleted') return this.#gone();
        this.#lastEventId = event.id;
        this.listener.event(event);
      });
    }
  }

  /** EventSource tells a refusal only as an error: whether the list is gone, the list says. */
  #refused(source: EventSource): void {
    const check = this.list.exists?.() ?? Promise.resolve(true);
    check
      .catch(() => true)
      .then((exists) => {
        if (this.#source !== source) return;
        if (!exists) return this.#gone();
        this.listener.state('reconnecting');
        this.#reconnectLater();
      });
  }

  #gone(): void {
    this.close();
    this.listener.state('gone');
  }

  #reconnectLater(): void {
    const delay = Math.min(RECONNECT_DELAY_MS * 2 ** this.#failures, MAX_RECONNECT_DELAY_MS);
    this.#failures += 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#connect(), delay);
  }
}
