import type { AppConfig } from '../config.ts';
import { concatBytes } from '../http/body.ts';
import type { ListInfo } from '../model/resources.ts';
import type { ListStore } from '../store/list-store.ts';

/** A comment line: it keeps proxies from closing a quiet stream, and finds clients that left. */
export const PING = new TextEncoder().encode(': ping\n\n');

/** Bytes a slow client may lag beyond its opening; past that it is dropped, and resumes by id. */
export const MAX_BACKLOG_BYTES = 1 << 20;

/** How long a dropped client has to take what its stream holds and see it end cleanly. */
export const DROPPED_CLIENT_GRACE_MS = 10_000;

export class StreamTally {
  openCount = 0;
  heartbeats = 0;

  get heartbeatRunning(): boolean {
    return this.heartbeats > 0;
  }
}

/** Where one client's events go, and the response that carries them: the host makes both. */
export interface EventChannel {
  /** False, taking nothing, once the client is gone or stalled. */
  write(bytes: Uint8Array): boolean;
  /** Ends the stream after what is queued, or, `now`, dropping it: the client left or stalled. */
  end(now: boolean): void;
  /** `listener` runs when the client is gone: the stream was cancelled or a write failed. */
  onGone(listener: () => void): void;
  respond(init: ResponseInit): Response;
}

/** What the host gives every list's streams. */
export interface StreamHost {
  /**
   * How each event stream is made: a web `TransformStream`, Node's response, or a socket. A
   * channel that outlives its list's memory keeps `viewOnly`: whether it came by the view id.
   */
  readonly openEventChannel: (queueBytes: number, viewOnly?: boolean) => EventChannel;
  /** False on workerd, where the worker writes them, so that the list's object can hibernate. */
  readonly writesHeartbeats: boolean;
  /** Runs a task once the answers under way are written, so a change is answered first. */
  readonly afterAnswers?: (task: () => void) => void;
}

/** What every list's streams share (a `ListContext`). */
export interface StreamContext {
  readonly config: { readonly sse: AppConfig['sse'] };
  readonly host: StreamHost;
  readonly tally: StreamTally;
}

/** The list whose changes the streams tell (a `LiveList`). */
export interface StreamedList {
  readonly store: ListStore;
  itemsJson(): Uint8Array;
  jsonOf(info: ListInfo, viewOnly: boolean): string;
}

/** One open event stream. Ending it, for whatever reason, releases everything it holds. */
export class EventClient {
  readonly #channel: EventChannel;
  readonly #signal: AbortSignal | undefined;
  readonly #onEnd: () => void;
  #ended = false;
  readonly #leave = () => this.end(true);

  /** `signal` is the request's, where the stream still has one. */
  constructor(channel: EventChannel, signal: AbortSignal | undefined, onEnd: () => void) {
    this.#channel = channel;
    this.#signal = signal;
    this.#onEnd = onEnd;
    channel.onGone(this.#leave);
    signal?.addEventListener('abort', this.#leave);
  }

  send(bytes: Uint8Array): void {
    if (!this.#ended && !this.#channel.write(bytes)) this.#leave();
  }

  end(now = false): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#signal?.removeEventListener('abort', this.#leave);
    this.#channel.end(now);
    this.#onEnd();
  }
}

/**
 * A web `TransformStream` with a queue of our own, which ending can drop and still close cleanly.
 * A failed write is all some hosts show of a client leaving (workerd's worker may miss the abort).
 */
export function webEventChannel(
  queueBytes: number,
  taken?: (byteCount: number) => void,
): EventChannel & { readonly heldBytes: number } {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let queue: Uint8Array[] = [];
  let queued = 0;
  /** Written, and not yet taken by the client. */
  let held = 0;
  let ending = false;
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
        void writer.write(chunk).then(() => {
          held -= chunk.byteLength;
          taken?.(chunk.byteLength);
        }, leave);
      }
      // `EventClient` ends a channel once: it is closed once.
      if (ending) await writer.close();
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
      held += bytes.byteLength;
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
    get heldBytes() {
      return held;
    },
    respond: (init) => new Response(readable, init),
  };
}
