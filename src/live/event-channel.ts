import { concatBytes } from '../http/body.ts';
import { LAST_EVENT_ID_PARAM } from '../model/events.ts';

/** A comment line: it keeps proxies from closing a quiet stream, and finds clients that left. */
export const PING = new TextEncoder().encode(': ping\n\n');

/** Bytes a slow client may lag beyond its opening; past that it is dropped, and resumes by id. */
export const MAX_BACKLOG_BYTES = 1 << 20;

/** The open streams and running heartbeats of all of an app's lists. */
export class StreamTally {
  openCount = 0;
  heartbeats = 0;

  get heartbeatRunning(): boolean {
    return this.heartbeats > 0;
  }
}

/** What a host or a test can see of the open streams. */
export type EventStreamStats = Pick<Readonly<StreamTally>, 'openCount' | 'heartbeatRunning'>;

/** Where one client's events go, and the response that carries them: the host makes both. */
export interface EventChannel {
  /** False, taking nothing, once the client is gone or stalled. `lastId`: the bytes' last id. */
  write(bytes: Uint8Array, lastId?: string): boolean;
  /** Ends the stream after what is queued, or, `now`, dropping it: the client left or stalled. */
  end(now: boolean): void;
  /** `listener` runs when the client is gone: the stream was cancelled or a write failed. */
  onGone(listener: () => void): void;
  respond(init: ResponseInit): Response;
}

/**
 * Opens a channel that queues up to `queueBytes` bytes for a client that reads slowly;
 * `viewOnly`: the stream was opened through the list's view id, which a channel that outlives
 * its list's memory must remember.
 */
export type OpenEventChannel = (queueBytes: number, viewOnly?: boolean) => EventChannel;

/** How long a dropped client has to take what its stream holds and see it end cleanly. */
export const DROPPED_CLIENT_GRACE_MS = 10_000;

/**
 * A web `TransformStream`, with a queue of our own that ending the stream can drop and still
 * close cleanly. A failed write is the only sign some hosts give that a client left (workerd's
 * worker may not hear of the abort).
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
        const chunk = concatBytes(queue);
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
    write(bytes) {
      if (ending || failed || queued >= queueBytes) return false;
      queue.push(bytes);
      queued += bytes.byteLength;
      void pass();
      return true;
    },
    end(now) {
      ending = true;
      if (now && !failed) {
        queue = [];
        queued = 0;
        // One that never reads again would hold its connection for ever: it is cut.
        const cut = () => void writer.abort(new Error('The client stopped reading.')).catch(leave);
        const timer = setTimeout(cut, DROPPED_CLIENT_GRACE_MS);
        const stop = () => clearTimeout(timer);
        writer.closed.then(stop, stop);
      }
      void pass();
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
    if (!this.#ended && !this.#channel.write(bytes, lastId)) this.#leave();
  }

  /** Ends the stream after what is queued: the server is stopping, or the stream's source ended. */
  end(): void {
    this.#finish(false);
  }

  #finish(gone: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#signal?.removeEventListener('abort', this.#leave);
    this.#channel.end(gone);
    this.#onEnd();
  }
}

/** The header a reconnecting EventSource sends wins over the query of the URL it first used. */
export function lastEventIdOf(request: Request): string | undefined {
  return (
    request.headers.get('last-event-id') ||
    new URL(request.url).searchParams.get(LAST_EVENT_ID_PARAM) ||
    undefined
  );
}
