import { LAST_EVENT_ID_PARAM, LIVE_EVENT_TYPES, RECONNECT_DELAY_MS } from '../model/events.ts';
import { readLiveEvent, type IdentifiedEvent } from '../model/events.ts';
import type { ListPaths } from '../model/resources.ts';
import { isNotFound } from './api-client.ts';

const MAX_RECONNECT_DELAY_MS = 30_000;

/** The state of the list's stream; `gone`: the list was deleted or never existed, for good. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'gone';

/** Hears the events and states of the stream. */
export interface LiveFeedListener {
  event(event: IdentifiedEvent): void;
  state(state: ConnectionState): void;
}

export interface FeedList {
  readonly paths: ListPaths;
  /** Reads a named list (`ListApi.read`): a 404 says it is gone. Absent for the default list. */
  readonly read?: () => Promise<unknown>;
}

/**
 * One `EventSource` on the list. A dropped one reconnects by itself, with `Last-Event-ID`; one
 * refused (an HTTP error) gives up, so this opens another later.
 */
export class EventStream {
  #source: EventSource | undefined;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `lastId` is the id of the last event applied, which the stream resumes after; `listener`,
   * told `gone`, closes this stream at once.
   */
  constructor(
    private readonly listener: LiveFeedListener,
    private readonly list: FeedList,
    private readonly lastId: () => string | undefined,
  ) {}

  open(): void {
    this.close();
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
    // On its own retries EventSource sends Last-Event-ID, which the server prefers to this.
    const lastId = this.lastId();
    const query =
      lastId === undefined ? '' : `?${LAST_EVENT_ID_PARAM}=${encodeURIComponent(lastId)}`;
    const source = new EventSource(`${this.list.paths.sse}${query}`);
    this.#source = source;
    source.addEventListener('open', () => {
      this.#failures = 0;
      this.listener.state('open');
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) void this.#refused(source);
      else this.listener.state('reconnecting');
    });
    for (const type of LIVE_EVENT_TYPES) {
      source.addEventListener(type, (message: MessageEvent<string>) => {
        const event = readLiveEvent(type, message.lastEventId, message.data);
        if (event === undefined) return;
        // The listener closes the stream at once, before EventSource reconnects to one no more.
        if (event.type === 'list-deleted') return this.listener.state('gone');
        this.listener.event(event);
      });
    }
  }

  /** EventSource tells a refusal only as an error: whether the list is gone, the list says. */
  async #refused(source: EventSource): Promise<void> {
    const gone = await this.list.read?.().then(() => false, isNotFound);
    if (this.#source !== source) return;
    if (gone) return this.listener.state('gone');
    this.listener.state('reconnecting');
    const delay = Math.min(RECONNECT_DELAY_MS * 2 ** this.#failures, MAX_RECONNECT_DELAY_MS);
    this.#failures += 1;
    this.#timer = setTimeout(() => this.#connect(), delay);
  }
}
