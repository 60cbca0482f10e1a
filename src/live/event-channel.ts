import { concatBytes } from '../http/body.ts';
import { LAST_EVENT_ID_PARAM } from '../model/events.ts';

/** A comment line: it keeps proxies from closing a quiet stream, and finds clients that left. */
export const PING = new TextEncoder().encode(': ping\n\n');

/**
 * How far a client may fall behind, in bytes queued beyond its opening, before it is dropped.
 * It then reconnects and resumes from the list's history, instead of holding memory forever.
 */
export const MAX_BACKLOG_BYTES = 1 << 20;

/** What a host or a test can see of the open streams. */
export interface EventStreamStats {
  readonly openCount: number;
  readonly heartbeatRunning: boolean;
}

/** The open streams of all of an app's lists, and their running heartbeats, counted together. */
export class StreamTally implements EventStreamStats {
  openCount = 0;
  heartbeats = 0;

  get heartbeatRunning(): boolean {
    return this.heartbeats > 0;
  }
}

/**
 * Where one client's events go. The handler writes bytes and learns when the client is gone;
 * how the bytes reach the socket is the host's business, and so is the response that carries
 * them, since only the host knows which body its Response class takes.
 */
export interface EventChannel {
  /** Bytes that may still be queued before the client counts as stalled; null once it failed. */
  readonly room: number | null;
  /** `lastId` is the id of the last event the bytes hold, if they hold one with an id. */
  write(bytes: Uint8Array, lastId?: string): void;
  /** Ends the stream after what is queued: the server is stopping. */
  close(): void;
  /** Ends the stream now, dropping what is queued: the client left or fell too far behind. */
  abort(): void;
  /** `listener` runs when the client is gone: the stream was cancelled or a write failed. */
  onGone(listener: () => void): void;
  /** The response whose body is this channel's stream. */
  respond(init: ResponseInit): Response;
}

/** Opens a channel that queues up to `queueBytes` bytes for a client that reads slowly. */
export type OpenEventChannel = (queueBytes: number) => EventChannel;

/**
 * A channel made of a web `TransformStream`, for any host. What the client has not yet taken
 * waits in the channel's own queue, passed on as the stream asks for more, so that ending the
 * stream can drop it and still end the stream cleanly. A failed write is the only sign some
 * hosts give that a client left (workerd's worker may not hear of the abort), so the writer
 * is kept and every write can fail.
 */
export const openWebEventChannel: OpenEventChannel = (queueBytes) => {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let queue: Uint8Array[] = [];
  let queued = 0;
  let ending = false;
  let closed = false;
  let failed = false;
  let passing = false;
  let gone = () => {};
  const leave = () => {
    if (failed) return;
    failed = true;
    queue = [];
    queued = 0;
    gone();
  };
  // A cancelled stream errors the writer; closing it ourselves resolves `closed` instead.
  writer.closed.catch(leave);
  const pass = async () => {
    if (passing || failed) return;
    passing = true;
    try {
      while (queue.length > 0) {
        await writer.ready;
        if (queue.length === 0) break;
        const chunk = queue.length === 1 ? queue[0]! : concatBytes(queue);
        queue = [];
        queued = 0;
        void writer.write(chunk).catch(leave);
      }
      if (ending && !closed) {
        closed = true;
        await writer.close();
      }
    } catch {
      leave();
    } finally {
      passing = false;
    }
  };
  return {
    get room() {
      return failed ? null : queueBytes - queued;
    },
    write(bytes) {
      if (ending || failed) return;
      queue.push(bytes);
      queued += bytes.byteLength;
      void pass();
    },
    close() {
      ending = true;
      void pass();
    },
    abort() {
      queue = [];
      queued = 0;
      this.close();
    },
    onGone: (listener) => {
      gone = listener;
    },
    respond: (init) => new Response(readable, init),
  };
};

/** One open event stream. Ending it, for whatever reason, releases everything it holds. */
export class EventClient {
  readonly #channel: EventChannel;
  readonly #signal: AbortSignal | undefined;
  readonly #onEnd: () => void;
  #ended = false;
  readonly #leave = () => this.#finish(true);

  /** `signal` is the request's, where the stream still has one. */
  constructor(channel: EventChannel, signal: AbortSignal | undefined, onEnd: () => void) {
    this.#channel = channel;
    this.#signal = signal;
    this.#onEnd = onEnd;
    channel.onGone(this.#leave);
    signal?.addEventListener('abort', this.#leave);
  }

  send(bytes: Uint8Array, lastId?: string): void {
    if (this.#ended) return;
    const room = this.#channel.room;
    // null: the stream has failed; not positive: the client stopped reading long ago.
    if (room === null || room <= 0) return this.#leave();
    this.#channel.write(bytes, lastId);
  }

  /** Closes the stream after what is queued: the server is stopping. */
  end(): void {
    this.#finish(false);
  }

  #finish(gone: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#signal?.removeEventListener('abort', this.#leave);
    // For a client that left, drop what is queued for it at once.
    if (gone) this.#channel.abort();
    else this.#channel.close();
    this.#onEnd();
  }
}

/** The header a reconnecting EventSource sends wins over the query of the URL it first used. */
export function lastEventIdOf(request: Request): string | null {
  return (
    request.headers.get('last-event-id') ||
    new URL(request.url).searchParams.get(LAST_EVENT_ID_PARAM) ||
    null
  );
}
