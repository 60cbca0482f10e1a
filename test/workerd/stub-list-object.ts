// Type-checked with the workers types (tsconfig.worker.json), as the relay it feeds is.
import { messagesOf, SEND_WINDOW_BYTES } from '../../src/hosts/workerd/relay-protocol.ts';

/** One SSE event of the stub's list, as a client parses it. */
export interface StubEvent {
  readonly id: string;
  readonly event: string;
  readonly data: string;
}

const RETRY = 'retry: 3000\n\n';
/** How the stub's socket closes when its object is lost: anything but the stream's end. */
const OBJECT_LOST = 1011;
const encoder = new TextEncoder();
const sse = ({ id, event, data }: StubEvent) => `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;

/** The worker's end of a socket to the stub: only what the relay uses of a WebSocket. */
class StubSocket {
  binaryType = 'blob';
  /** The code the worker closed it with, if it did. */
  closedWith: number | undefined;
  /** Hears the worker's word that its client took that many more bytes. */
  onTaken = (_byteCount: number) => {};
  readonly #listeners = new Map<string, ((event: object) => void)[]>();
  #closed = false;
  readonly #send: (socket: StubSocket) => void;

  constructor(send: (socket: StubSocket) => void) {
    this.#send = send;
  }

  accept(): void {
    this.#send(this);
  }

  addEventListener(type: string, listener: (event: object) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  close(code: number): void {
    this.#closed = true;
    this.closedWith ??= code;
  }

  send(message: string): void {
    this.onTaken(Number(message));
  }

  emit(type: 'message' | 'close', event: object): void {
    if (this.#closed) return;
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

export interface StubOptions {
  /** The list's events: the first is its snapshot, the rest its changes, in order. */
  readonly events: readonly StubEvent[];
  /** How the changes after a new stream's snapshot are written: indexes into `events`. */
  readonly writes: readonly (readonly number[])[];
  /**
   * How many of the messages an opening would send go before its socket drops, or undefined
   * for none: `opening` counts the object's openings from 0.
   */
  readonly cut: (messages: readonly Uint8Array[], opening: number) => number | undefined;
  /** The code its socket closes with at the cut: by default, that of an object lost. */
  readonly cutCode?: number;
  /** The time between two messages, and before the first; with 0, they come back to back. */
  readonly gapMs?: number;
  /**
   * Whether it sends every message regardless; else it keeps to the window as the object
   * does, leaving no more than `SEND_WINDOW_BYTES` unacknowledged.
   */
  readonly ignoresWindow?: boolean;
}

/**
 * A list's object as the worker sees it: each opening sends the stream from the request's
 * `last-event-id` (the changes after it, or the snapshot and every change when it is unknown),
 * cut into messages as the object cuts them, and may drop the socket part way.
 */
export class StubListObject {
  /** When each opening was asked for (`Date.now()`). */
  readonly openedAt: number[] = [];
  /** The worker's end of each socket opened. */
  readonly sockets: StubSocket[] = [];
  readonly #options: StubOptions;

  constructor(options: StubOptions) {
    this.#options = options;
  }

  readonly stub = {
    fetch: async (request: Request) => {
      const opening = this.openedAt.push(Date.now()) - 1;
      const writes = this.#writesAfter(request.headers.get('last-event-id'));
      const messages = writes.flatMap((write) => [...messagesOf(encoder.encode(write))]);
      const cut = this.#options.cut(messages, opening);
      const webSocket = new StubSocket((socket) => this.#send(socket, messages, cut));
      this.sockets.push(webSocket);
      return { webSocket, headers: new Headers(), body: null };
    },
  } as unknown as DurableObjectStub;

  #writesAfter(lastEventId: string | null): string[] {
    const { events, writes } = this.#options;
    const after = events.findIndex(({ id }) => id === lastEventId);
    if (after === -1) {
      const changes = writes.map((write) => write.map((index) => sse(events[index]!)).join(''));
      return [RETRY + sse(events[0]!), ...changes];
    }
    return [
      RETRY +
        events
          .slice(after + 1)
          .map(sse)
          .join(''),
    ];
  }

  #send(socket: StubSocket, messages: readonly Uint8Array[], cut: number | undefined): void {
    const gapMs = this.#options.gapMs ?? 1;
    const window = this.#options.ignoresWindow ? Infinity : SEND_WINDOW_BYTES;
    let unacked = 0;
    let stalled: (() => void) | undefined;
    socket.onTaken = (byteCount) => {
      unacked = Math.max(0, unacked - byteCount);
      stalled?.();
    };
    const next = (sent: number) => {
      stalled = undefined;
      if (sent === cut) return socket.emit('close', { code: this.#options.cutCode ?? OBJECT_LOST });
      if (sent === messages.length) return;
      const { buffer, byteOffset, byteLength } = messages[sent]!;
      if (unacked + byteLength > window) return void (stalled = () => next(sent));
      unacked += byteLength;
      socket.emit('message', { data: buffer.slice(byteOffset, byteOffset + byteLength) });
      if (gapMs === 0) next(sent + 1);
      else setTimeout(() => next(sent + 1), gapMs);
    };
    setTimeout(() => next(0), gapMs);
  }
}
