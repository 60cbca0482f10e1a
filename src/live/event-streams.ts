import type { AppConfig } from '../config.ts';
import { HttpProblem } from '../http/problem.ts';
import type { TodoChange } from '../todos/changes.ts';
import type { TodoStore } from '../todos/store.ts';
import type { OpenEventChannel } from './event-channel.ts';
import { EventClient } from './event-client.ts';
import {
  formatLiveEvent,
  LAST_EVENT_ID_PARAM,
  RECONNECT_DELAY_MS,
  type ChangeEvent,
  type SnapshotEvent,
} from './events.ts';

const encoder = new TextEncoder();
const PING = encoder.encode(': ping\n');
const PING_END = encoder.encode('\n');
/**
 * A heartbeat is written in two parts, this far apart. A Durable Object learns that a client
 * left only when a write to it fails, and the first write after the client left still
 * succeeds: the second part makes the heartbeat itself find the client gone.
 */
const PING_END_DELAY_MS = 250;
const RETRY = `retry: ${RECONNECT_DELAY_MS}\n\n`;

/**
 * How far a client may fall behind, in bytes queued beyond its opening, before it is dropped.
 * It then reconnects and resumes from the replay buffer, instead of holding memory forever.
 */
const MAX_BACKLOG_BYTES = 1 << 20;

/** What a host or a test can see of the open streams. */
export interface EventStreamStats {
  readonly openCount: number;
  readonly heartbeatRunning: boolean;
}

/**
 * The clients of `GET /api/sse`. Each one is a subscription to the store and a channel;
 * one shared timer sends heartbeats, and runs only while a client is open.
 *
 * A client is dropped as soon as anything shows it left: its request is aborted, its stream
 * is cancelled, or a write to it fails. The last is the only sign some hosts give (a Durable
 * Object never hears of the abort), and the heartbeat makes sure a write happens.
 */
export class EventStreams implements EventStreamStats {
  readonly #store: TodoStore;
  readonly #settings: AppConfig['sse'];
  readonly #openChannel: OpenEventChannel;
  readonly #clients = new Set<EventClient>();
  readonly #frames = new WeakMap<TodoChange, Uint8Array>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #heartbeatEnd: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(store: TodoStore, settings: AppConfig['sse'], openChannel: OpenEventChannel) {
    this.#store = store;
    this.#settings = settings;
    this.#openChannel = openChannel;
  }

  get openCount(): number {
    return this.#clients.size;
  }

  get heartbeatRunning(): boolean {
    return this.#heartbeat !== undefined;
  }

  /** The body of a new stream for `request`; 503 when the server is full or stopping. */
  open(request: Request): ReadableStream<Uint8Array> {
    if (this.#closed) {
      throw unavailable('The server is shutting down; reconnect in a moment.');
    }
    if (this.#clients.size >= this.#settings.maxClients) {
      throw unavailable(
        `Too many event streams are open (the most is ${this.#settings.maxClients}); try again shortly.`,
      );
    }

    // A request aborted already will never fire its abort event.
    if (request.signal.aborted) throw new HttpProblem(400, 'The request was aborted.');
    // Reading the opening and subscribing happen in one synchronous step: no change between
    // them can be missed or sent twice.
    const opening = this.#openingFor(lastEventIdOf(request));
    const channel = this.#openChannel(opening.byteLength + MAX_BACKLOG_BYTES);
    const client = new EventClient(channel, request.signal, () => this.#forget(client));
    client.send(opening);
    client.listenTo(this.#store.subscribe((change) => client.send(this.#frameOf(change))));
    this.#clients.add(client);
    this.#startHeartbeat();
    return channel.body;
  }

  /** Ends every open stream cleanly and refuses new ones: the host is shutting down. */
  close(): void {
    this.#closed = true;
    for (const client of this.#clients) client.end();
  }

  #openingFor(lastEventId: string | null): Uint8Array {
    const missed = lastEventId ? this.#store.changesSince(lastEventId) : undefined;
    if (missed === undefined) {
      const snapshot: SnapshotEvent = {
        type: 'snapshot',
        id: this.#store.version,
        todos: this.#store.list(),
      };
      return encoder.encode(RETRY + formatLiveEvent(snapshot));
    }
    return concat([encoder.encode(RETRY), ...missed.map((change) => this.#frameOf(change))]);
  }

  /** Every client gets the same bytes for a change: encode them once. */
  #frameOf(change: TodoChange): Uint8Array {
    let frame = this.#frames.get(change);
    if (frame === undefined) {
      frame = encoder.encode(formatLiveEvent(eventOf(change)));
      this.#frames.set(change, frame);
    }
    return frame;
  }

  #forget(client: EventClient): void {
    this.#clients.delete(client);
    if (this.#clients.size === 0 && this.#heartbeat !== undefined) {
      clearInterval(this.#heartbeat);
      if (this.#heartbeatEnd !== undefined) clearTimeout(this.#heartbeatEnd);
      this.#heartbeat = this.#heartbeatEnd = undefined;
    }
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== undefined) return;
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) client.send(PING);
      this.#heartbeatEnd = setTimeout(() => {
        this.#heartbeatEnd = undefined;
        for (const client of this.#clients) client.send(PING_END);
      }, PING_END_DELAY_MS);
    }, this.#settings.heartbeatSeconds * 1000);
  }
}

function eventOf(change: TodoChange): ChangeEvent {
  return { type: change.type, id: change.version, todo: change.todo };
}

/** The header a reconnecting EventSource sends wins over the query of the URL it first used. */
function lastEventIdOf(request: Request): string | null {
  return (
    request.headers.get('last-event-id') ||
    new URL(request.url).searchParams.get(LAST_EVENT_ID_PARAM) ||
    null
  );
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

function unavailable(detail: string): HttpProblem {
  return new HttpProblem(503, detail, {
    headers: { 'retry-after': String(RECONNECT_DELAY_MS / 1000) },
  });
}
