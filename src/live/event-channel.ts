import type { AppConfig } from '../config.ts';
import { LAST_EVENT_ID_PARAM } from '../model/events.ts';
import type { ListInfo } from '../model/resources.ts';
import type { ListStore } from '../store/list-store.ts';

/** A comment line: it keeps proxies from closing a quiet stream, and finds clients that left. */
export const PING = new TextEncoder().encode(': ping\n\n');

/** Bytes a slow client may lag beyond its opening; past that it is dropped, and resumes by id. */
export const MAX_BACKLOG_BYTES = 1 << 20;

export class StreamTally {
  openCount = 0;
  heartbeats = 0;

  get heartbeatRunning(): boolean {
    return this.heartbeats > 0;
  }
}

export type EventStreamStats = Pick<Readonly<StreamTally>, 'openCount' | 'heartbeatRunning'>;

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

/** `viewOnly`, which a channel that outlives its list's memory keeps: it came by the view id. */
export type OpenEventChannel = (queueBytes: number, viewOnly?: boolean) => EventChannel;

/** What the host gives every list's streams. */
export interface StreamHost {
  /** How each event stream is made: a web `TransformStream`, Node's response, or a socket. */
  readonly openEventChannel: OpenEventChannel;
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

/** The header a reconnecting EventSource sends wins over the query of the URL it first used. */
export function lastEventIdOf(request: Request): string | undefined {
  return (
    request.headers.get('last-event-id') ||
    new URL(request.url).searchParams.get(LAST_EVENT_ID_PARAM) ||
    undefined
  );
}
