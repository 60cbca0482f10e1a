import type { AppConfig } from '../config.ts';
import type { Host } from '../host.ts';
import { concatBytes } from '../http/bytes.ts';
import { HttpProblem } from '../http/problem.ts';
import type { ListInfo } from '../lists/list-info.ts';
import type { TodoStore } from '../todos/store.ts';
import type { EventChannel, OpenEventChannel } from './event-channel.ts';
import { EventClient } from './event-client.ts';
import { formatLiveEvent, RECONNECT_DELAY_MS, type ChangeEvent } from './events.ts';
import { Heartbeat } from './heartbeat.ts';
import { lastEventIdOf, openingFor } from './stream-opening.ts';
import { StreamTally, type EventStreamStats } from './stream-tally.ts';

const encoder = new TextEncoder();

/**
 * How far a client may fall behind, in bytes queued beyond its opening, before it is dropped.
 * It then reconnects and resumes from the replay buffer, instead of holding memory forever.
 */
export const MAX_BACKLOG_BYTES = 1 << 20;

export type { EventStreamStats };

/**
 * The clients of one list's event stream, fed from one subscription to its store. A change is
 * encoded once for all the clients, and only when there is one.
 *
 * A client is dropped as soon as anything shows it left: its request is aborted, its stream
 * is cancelled, or a write to it fails; the heartbeat makes sure a write happens.
 */
export class EventStreams implements EventStreamStats {
  readonly #store: TodoStore;
  readonly #maxClients: number;
  readonly #openChannel: OpenEventChannel;
  readonly #clients = new Set<EventClient>();
  readonly #frames = new WeakMap<ChangeEvent, Uint8Array>();
  readonly #heartbeat: Heartbeat | undefined;
  readonly #tally: StreamTally;
  readonly #afterAnswers: ((task: () => void) => void) | undefined;
  /** Changes made and answered, not yet written to the clients, in order. */
  #unsent: Uint8Array[] = [];
  #closed = false;

  /** `tally` counts these streams with those of the app's other lists. */
  constructor(
    store: TodoStore,
    settings: AppConfig['sse'],
    host: Pick<Host, 'openEventChannel' | 'writesHeartbeats' | 'afterAnswers'>,
    tally = new StreamTally(),
  ) {
    this.#store = store;
    this.#tally = tally;
    this.#maxClients = settings.maxClients;
    this.#openChannel = host.openEventChannel;
    if (host.writesHeartbeats) {
      this.#heartbeat = new Heartbeat(settings.heartbeatSeconds, (bytes) => this.#sendAll(bytes));
    }
    this.#afterAnswers = host.afterAnswers;
    store.subscribe((change) => {
      if (this.#clients.size === 0) return;
      this.#unsent.push(this.#frameOf(change));
      // With 10,000 streams open, writing a change to each takes a tenth of a second: the
      // change's answer goes first. Changes made meanwhile go out together, in order.
      if (this.#afterAnswers === undefined) this.#sendUnsent();
      else if (this.#unsent.length === 1) this.#afterAnswers(() => this.#sendUnsent());
    });
  }

  get openCount(): number {
    return this.#clients.size;
  }

  get heartbeatRunning(): boolean {
    return this.#heartbeat?.running ?? false;
  }

  /** The channel of a new stream for `request`; 503 when the list is full or stopping. */
  open(request: Request): EventChannel {
    if (this.#closed) {
      throw unavailable('The server is shutting down; reconnect in a moment.');
    }
    if (this.#clients.size >= this.#maxClients) {
      throw unavailable(
        `Too many event streams are open (the most is ${this.#maxClients}); try again shortly.`,
      );
    }

    // A request aborted already will never fire its abort event.
    if (request.signal.aborted) throw new HttpProblem(400, 'The request was aborted.');
    // Reading the opening and joining the clients happen in one synchronous step, after the
    // clients already open have every change made: no change can be missed or sent twice.
    this.#sendUnsent();
    const opening = openingFor(this.#store, lastEventIdOf(request), this.#frameOf);
    const channel = this.#openChannel(opening.byteLength + MAX_BACKLOG_BYTES);
    this.#join(channel, request.signal).send(opening);
    return channel;
  }

  /**
   * Takes on a stream opened by an earlier instance of this list in this place, which the host
   * kept while the list was out of memory: a Durable Object's hibernated WebSocket.
   */
  adopt(channel: EventChannel): void {
    this.#sendUnsent();
    this.#join(channel, undefined);
  }

  #join(channel: EventChannel, signal: AbortSignal | undefined): EventClient {
    const client = new EventClient(channel, signal, () => this.#forget(client));
    this.#clients.add(client);
    this.#tally.streamOpened();
    if (this.#heartbeat?.running === false) {
      this.#heartbeat.start();
      this.#tally.heartbeatStarted();
    }
    return client;
  }

  /** Ends every open stream cleanly and refuses new ones: the host is shutting down. */
  close(): void {
    this.#sendUnsent();
    this.#closed = true;
    for (const client of this.#clients) client.end();
  }

  /** The list was deleted: every client is told so, then its stream ends. */
  endForDeletion(list: ListInfo): void {
    this.#sendUnsent();
    this.#sendAll(encoder.encode(formatLiveEvent({ type: 'list-deleted', list })));
    this.close();
  }

  /** A change replayed to many clients is encoded once. */
  readonly #frameOf = (change: ChangeEvent): Uint8Array => {
    let frame = this.#frames.get(change);
    if (frame === undefined) {
      frame = encoder.encode(formatLiveEvent(change));
      this.#frames.set(change, frame);
    }
    return frame;
  };

  #sendUnsent(): void {
    if (this.#unsent.length === 0) return;
    const unsent = this.#unsent;
    this.#unsent = [];
    this.#sendAll(unsent.length === 1 ? unsent[0]! : concatBytes(unsent));
  }

  #sendAll(bytes: Uint8Array): void {
    for (const client of this.#clients) client.send(bytes);
  }

  #forget(client: EventClient): void {
    this.#clients.delete(client);
    this.#tally.streamEnded();
    if (this.#clients.size === 0 && this.#heartbeat?.running) {
      this.#heartbeat.stop();
      this.#tally.heartbeatStopped();
    }
  }
}

function unavailable(detail: string): HttpProblem {
  return new HttpProblem(503, detail, {
    headers: { 'retry-after': String(RECONNECT_DELAY_MS / 1000) },
  });
}
