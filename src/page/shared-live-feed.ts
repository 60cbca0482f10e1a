import { LIVE_EVENT_TYPES, RECONNECT_DELAY_MS, type IdentifiedEvent } from '../live/events.ts';
import { EventOrder } from './event-order.ts';
import { EventStream } from './event-stream.ts';
import type { ConnectionState, LiveFeed, LiveFeedListener } from './live-feed.ts';
import { TabLock } from './tab-lock.ts';
import type { TodoApi } from './todo-api.ts';

/** Named with a version: a tab still running older code must not misread the messages. */
const LOCK_NAME = 'todo-live-feed-1';
const CHANNEL_NAME = 'todo-live-feed-1';
const STATES: readonly ConnectionState[] = ['connecting', 'open', 'reconnecting'];

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
 * One event stream for all tabs of the origin. The tab that holds the Web Lock holds the
 * stream and relays every event, with its id, and every change of the stream's state over a
 * BroadcastChannel; the others follow. When the holder closes or freezes, the browser gives the
 * lock to a waiting tab, which resumes the stream after the last event it applied. A tab that
 * joins reads the list from the API at once. Ids let each tab apply every event once.
 */
export class SharedLiveFeed implements LiveFeed {
  readonly #order: EventOrder;
  readonly #stream: EventStream;
  readonly #lock: TabLock;
  readonly #channel = new BroadcastChannel(CHANNEL_NAME);
  /** The shared stream's state, as this tab last saw or heard it. */
  #state: ConnectionState = 'connecting';
  #retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly listener: LiveFeedListener,
    private readonly api: TodoApi,
    locks: LockManager,
  ) {
    this.#order = new EventOrder((event) => listener.event(event));
    this.#stream = new EventStream({
      event: (event) => {
        this.#order.accept(event);
        this.#post({ kind: 'event', event });
      },
      state: (state) => {
        this.#setState(state);
        this.#post({ kind: 'state', state });
      },
    });
    this.#lock = new TabLock(locks, LOCK_NAME, {
      lead: () => this.#stream.open(this.#order.lastId),
      follow: () => {
        this.#post({ kind: 'hello' });
        this.#readList();
      },
    });
  }

  start(): void {
    this.listener.state('connecting');
    this.#channel.addEventListener('message', (message) => this.#receive(message.data));
    // A frozen tab, or one kept in the back/forward cache, runs no code: it lets another
    // tab hold the stream, and on coming back joins again and catches up.
    document.addEventListener('freeze', () => this.#pause());
    document.addEventListener('resume', () => this.#lock.join());
    addEventListener('pagehide', (event) => event.persisted && this.#pause());
    addEventListener('pageshow', (event) => event.persisted && this.#lock.join());
    this.#lock.join();
  }

  #pause(): void {
    this.#stream.close();
    this.#lock.leave();
  }

  #receive(message: unknown): void {
    if (!isTabMessage(message)) return;
    switch (message.kind) {
      case 'event':
        // Even a holder takes these: its predecessor's last relays may arrive after it took
        // over. The order drops what it already applied.
        this.#order.accept(message.event);
        break;
      case 'state':
        if (!this.#lock.held) this.#setState(message.state);
        break;
      case 'hello':
        if (this.#lock.held) this.#post({ kind: 'state', state: this.#state });
        break;
    }
  }

  #setState(state: ConnectionState): void {
    const reopened = state === 'open' && this.#state !== 'open';
    this.#state = state;
    this.listener.state(state);
    // A tab that could not read the list as it joined (the service was down) reads it now.
    if (reopened && this.#order.lastId === undefined && !this.#lock.held) this.#readList();
  }

  #readList(): void {
    clearTimeout(this.#retry);
    this.api.list().then(
      (snapshot) => this.#order.accept(snapshot),
      () => {
        if (this.#order.lastId !== undefined || this.#lock.held) return;
        this.#retry = setTimeout(() => this.#readList(), RECONNECT_DELAY_MS);
      },
    );
  }

  #post(message: TabMessage): void {
    this.#channel.postMessage(message);
  }
}
