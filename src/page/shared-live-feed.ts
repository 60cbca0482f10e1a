import { LIVE_EVENT_TYPES, RECONNECT_DELAY_MS, type IdentifiedEvent } from '../model/events.ts';
import { isNotFound } from './api-request.ts';
import { EventOrder } from './event-order.ts';
import { EventStream } from './event-stream.ts';
import type { ConnectionState, FeedList, LiveFeed, LiveFeedListener } from './event-stream.ts';
import { TabLock } from './tab-lock.ts';
import type { TodoApi } from './todo-api.ts';

/**
 * Named with a version, so that a tab still running older code does not misread the messages,
 * and followed by the list's stream, so that each list has its own lock, channel and stream.
 */
const FEED_NAME = 'todo-live-feed-2';
const STATES: readonly ConnectionState[] = ['connecting', 'open', 'reconnecting', 'gone'];

/** What tabs tell each other. The holder sends events and states; a tab that joins, hello. */
type TabMessage =
  | { readonly kind: 'event'; readonly event: IdentifiedEvent }
  | { readonly kind: 'state'; readonly state: ConnectionState }
  | { readonly kind: 'hello' };

function isTabMessage(data: unknown): data is TabMessage {
  const message = data as Partial<Record<string, unknown>> | null;
  if (typeof message !== 'object' || message === null) return false;
  if (message.kind === 'event') {
    const event = message.event as Partial<IdentifiedEvent> | null;
    return typeof event?.id === 'string' && LIVE_EVENT_TYPES.includes(event.type!);
  }
  if (message.kind === 'state') return STATES.includes(message.state as ConnectionState);
  return message.kind === 'hello';
}

/**
 * One event stream for all tabs of the origin that show one list. The tab that holds the Web
 * Lock holds the stream and relays every event, with its id, and every change of the stream's
 * state over a BroadcastChannel; the others follow. When the holder closes or freezes, the
 * browser gives the lock to a waiting tab, which resumes the stream after the last event it
 * applied. A tab that joins reads the list from the API at once. Ids let each tab apply every
 * event once. Whichever tab learns that the list is gone tells the others, and all stop.
 */
export class SharedLiveFeed implements LiveFeed {
  readonly #order: EventOrder;
  readonly #stream: EventStream;
  readonly #lock: TabLock;
  readonly #channel: BroadcastChannel;
  /** The shared stream's state, as this tab last saw or heard it. */
  #state: ConnectionState = 'connecting';
  #retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly listener: LiveFeedListener,
    private readonly api: TodoApi,
    locks: LockManager,
    list: FeedList,
  ) {
    const name = `${FEED_NAME} ${list.paths.sse}`;
    this.#channel = new BroadcastChannel(name);
    this.#order = new EventOrder((event) => listener.event(event));
    this.#stream = new EventStream(
      {
        event: (event) => {
          this.#order.accept(event);
          this.#post({ kind: 'event', event });
        },
        state: (state) => this.#tell(state),
      },
      list,
    );
    this.#lock = new TabLock(locks, name, {
      lead: () => {
        if (this.#state !== 'gone') this.#stream.open(this.#order.lastId);
      },
      follow: () => {
        this.#post({ kind: 'hello' });
        this.#readList();
      },
    });
  }

  get leads(): boolean {
    return this.#lock.held;
  }

  start(): void {
    this.listener.state('connecting');
    this.#channel.addEventListener('message', (message) => this.#receive(message.data));
    // A frozen tab, or one kept in the back/forward cache, runs no code: it lets another
    // tab hold the stream, and on coming back joins again and catches up.
    document.addEventListener('freeze', () => this.#pause());
    document.addEventListener('resume', () => this.#join());
    addEventListener('pagehide', (event) => event.persisted && this.#pause());
    addEventListener('pageshow', (event) => event.persisted && this.#join());
    this.#join();
  }

  end(): void {
    this.#tell('gone');
  }

  #join(): void {
    if (this.#state !== 'gone') this.#lock.join();
  }

  #pause(): void {
    // A tab that knows the list is gone keeps the lock, so that no tab opens its stream again.
    if (this.#state === 'gone') return;
    this.#stream.close();
    this.#lock.leave();
  }

  #receive(message: unknown): void {
    if (!isTabMessage(message)) return;
    switch (message.kind) {
      case 'event':
        // Even a holder takes these: its predecessor's last relays may arrive after it took
        // over. The order drops what it already applied.
        if (this.#state !== 'gone') this.#order.accept(message.event);
        break;
      case 'state':
        // Any tab may be the one that learns the list is gone; the rest is the holder's word.
        if (message.state === 'gone' || !this.#lock.held) this.#setState(message.state);
        break;
      case 'hello':
        if (this.#lock.held || this.#state === 'gone') {
          this.#post({ kind: 'state', state: this.#state });
        }
        break;
    }
  }

  /** Takes the state and tells the other tabs. */
  #tell(state: ConnectionState): void {
    if (this.#state === 'gone') return;
    this.#setState(state);
    this.#post({ kind: 'state', state });
  }

  #setState(state: ConnectionState): void {
    if (this.#state === 'gone') return;
    const reopened = state === 'open' && this.#state !== 'open';
    this.#state = state;
    if (state === 'gone') this.#stop();
    this.listener.state(state);
    // A tab that could not read the list as it joined (the service was down) reads it now.
    if (reopened && this.#order.lastId === undefined && !this.#lock.held) this.#readList();
  }

  /** For good: there is no list left to follow. A holder keeps the lock, and answers hello. */
  #stop(): void {
    clearTimeout(this.#retry);
    this.#stream.close();
    if (!this.#lock.held) this.#lock.leave();
  }

  #readList(): void {
    clearTimeout(this.#retry);
    this.api.list().then(
      (snapshot) => {
        if (this.#state !== 'gone') this.#order.accept(snapshot);
      },
      (error: unknown) => {
        if (isNotFound(error)) return this.#tell('gone');
        if (this.#order.lastId !== undefined || this.#lock.held || this.#state === 'gone') return;
        this.#retry = setTimeout(() => this.#readList(), RECONNECT_DELAY_MS);
      },
    );
  }

  #post(message: TabMessage): void {
    this.#channel.postMessage(message);
  }
}
