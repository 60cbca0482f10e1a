import { RECONNECT_DELAY_MS, type IdentifiedEvent } from '../model/events.ts';
import { isNotFound, type TodoApi } from './api-client.ts';
import { EventOrder } from './event-order.ts';
import { EventStream } from './event-stream.ts';
import type { ConnectionState, FeedList, LiveFeedListener } from './event-stream.ts';

/** Versioned, so only tabs running this code talk; the list's stream is added: a lock a list. */
const FEED_NAME = 'todo-live-feed-2';

/** What tabs tell each other. The holder sends events and states; a tab that joins, hello. */
type TabMessage =
  | { readonly kind: 'event'; readonly event: IdentifiedEvent }
  | { readonly kind: 'state'; readonly state: ConnectionState }
  | { readonly kind: 'hello' };

/** The list's events for this tab (docs/page.md, One stream for all tabs). */
export class LiveFeed {
  readonly #order = new EventOrder((event) => this.listener.event(event));
  readonly #stream: EventStream;
  readonly #name: string;
  readonly #channel: BroadcastChannel | undefined;
  /** The shared stream's state, as this tab last saw or heard it. */
  #state: ConnectionState = 'connecting';
  #retry: ReturnType<typeof setTimeout> | undefined;
  /** Makes this tab the holder no more: lets go of the Web Lock, or with none, of the mark. */
  #release: (() => void) | undefined;
  #waiting: AbortController | undefined;

  constructor(
    private readonly listener: LiveFeedListener,
    private readonly api: TodoApi,
    list: FeedList,
  ) {
    this.#name = `${FEED_NAME} ${list.paths.sse}`;
    const shared =
      typeof navigator.locks?.request === 'function' && typeof BroadcastChannel === 'function';
    this.#channel = shared ? new BroadcastChannel(this.#name) : undefined;
    const relay = {
      event: (event: IdentifiedEvent) => {
        this.#order.accept(event);
        this.#channel?.postMessage({ kind: 'event', event } satisfies TabMessage);
      },
      state: (state: ConnectionState) => this.#tell(state),
    };
    this.#stream = new EventStream(relay, list, () => this.#order.lastId);
  }

  /** Whether this tab holds the list's stream: the one tab that sends the list's queued edits. */
  get leads(): boolean {
    return this.#release !== undefined;
  }

  start(): void {
    this.#channel?.addEventListener('message', ({ data }: MessageEvent<TabMessage>) =>
      this.#receive(data),
    );
    // A frozen tab, or one in the back/forward cache, runs no code: it lets another tab hold
    // the stream, and on coming back joins again and catches up.
    document.addEventListener('freeze', () => this.#pause());
    document.addEventListener('resume', () => this.#join());
    addEventListener('pagehide', (event) => event.persisted && this.#pause());
    addEventListener('pageshow', (event) => event.persisted && this.#join());
    this.#join();
  }

  /** The list is gone, as a request of this tab found: stops, and tells the other tabs. */
  end(): void {
    this.#tell('gone');
  }

  #join(): void {
    if (this.#state === 'gone' || this.leads || this.#waiting !== undefined) return;
    // Without Web Locks each tab leads its own stream; #release only marks that it does.
    if (this.#channel === undefined) return void this.#lead();
    navigator.locks
      .request(this.#name, { ifAvailable: true }, (lock) => {
        if (lock !== null) return this.#lead();
        this.#channel?.postMessage({ kind: 'hello' } satisfies TabMessage);
        this.#readList();
        this.#queue();
        return undefined;
      })
      .catch(() => this.#queue());
  }

  #queue(): void {
    if (this.#waiting !== undefined) return;
    const waiting = (this.#waiting = new AbortController());
    navigator.locks
      .request(this.#name, { signal: waiting.signal }, () => {
        this.#waiting = undefined;
        return this.#lead();
      })
      // Aborted by #leave(): the tab queues again when it resumes.
      .catch(() => {});
  }

  /** Holds the lock (or the mark), and opens the stream, until #leave() settles the promise. */
  #lead(): Promise<void> {
    return new Promise((resolve) => {
      this.#release = resolve;
      if (this.#state !== 'gone') this.#stream.open();
    });
  }

  /** Lets go of the lock, or leaves the queue: a frozen tab runs no code, so keeps neither. */
  #leave(): void {
    this.#waiting?.abort();
    this.#waiting = undefined;
    this.#release?.();
    this.#release = undefined;
  }

  #pause(): void {
    // A tab that knows the list is gone keeps the lock, so that no tab opens its stream again.
    if (this.#state === 'gone') return;
    this.#stream.close();
    this.#leave();
  }

  #receive(message: TabMessage): void {
    if (message.kind === 'event') {
      // Even a holder: its predecessor's last relays may come after it took over.
      if (this.#state !== 'gone') this.#order.accept(message.event);
    } else if (message.kind === 'state') {
      // Any tab may be the one that learns the list is gone; the rest is the holder's word.
      if (message.state === 'gone' || !this.leads) this.#setState(message.state);
    } else if (this.leads || this.#state === 'gone') {
      this.#channel?.postMessage({ kind: 'state', state: this.#state } satisfies TabMessage);
    }
  }

  #tell(state: ConnectionState): void {
    if (this.#state === 'gone') return;
    this.#setState(state);
    this.#channel?.postMessage({ kind: 'state', state } satisfies TabMessage);
  }

  #setState(state: ConnectionState): void {
    if (this.#state === 'gone') return;
    const reopened = state === 'open' && this.#state !== 'open';
    this.#state = state;
    if (state === 'gone') {
      // For good: there is no list left to follow. A holder keeps the lock, and answers hello.
      clearTimeout(this.#retry);
      this.#stream.close();
      if (!this.leads) this.#leave();
    }
    this.listener.state(state);
    // A tab that could not read the list as it joined (the service was down) reads it now.
    if (reopened && this.#order.lastId === undefined && !this.leads) this.#readList();
  }

  #readList(): void {
    clearTimeout(this.#retry);
    this.api.list().then(
      (snapshot) => this.#state !== 'gone' && this.#order.accept(snapshot),
      (error: unknown) => {
        if (isNotFound(error)) return this.#tell('gone');
        if (this.#order.lastId !== undefined || this.leads || this.#state === 'gone') return;
        this.#retry = setTimeout(() => this.#readList(), RECONNECT_DELAY_MS);
      },
    );
  }
}
