import { concatBytes } from '../../http/body.ts';
import { MAX_BACKLOG_BYTES } from '../../live/event-channel.ts';

/**
 * How a list's object and the worker that carries one of its event streams speak over their
 * WebSocket. The object sends the stream's bytes in binary messages; the worker follows the SSE
 * messages in what it passed on (`PassedMessages`), and resumes after the last whole one.
 */

/**
 * How the worker reopens a lost socket. The first wait is short: an object that restarted
 * (evicted, deployed) answers again within a second, and the client should see no gap. Each
 * failure in a row doubles it, and each wait is half to all of that at random, so that the
 * streams of one object do not all come back at once. Six failures in a row (6 to 12 s of
 * waiting) say the object is down: the stream ends, and the client's EventSource comes back
 * after its `retry` and resumes by id. A socket that stayed open `steadyMs` was a success.
 */
export const RECONNECT = { firstDelayMs: 250, maxDelayMs: 4000, attempts: 6, steadyMs: 10_000 };

/** The wait before reopening after `failures` in a row (1 or more). */
export function reconnectDelayMs(failures: number): number {
  const delayMs = Math.min(RECONNECT.maxDelayMs, RECONNECT.firstDelayMs * 2 ** (failures - 1));
  return delayMs / 2 + (Math.random() * delayMs) / 2;
}

/** The object's close code: the stream ends. A socket closed otherwise lost its object. */
export const STREAM_ENDED = 1000;

/** Ends the stream on `socket`, which may have closed already, with `code`. */
export function endStream(socket: WebSocket, code = STREAM_ENDED): void {
  try {
    socket.close(code);
  } catch {
    // Closed already: there is no one left to tell.
  }
}

/**
 * The largest message either side sends: workerd refuses one over 32 MiB, which a snapshot may
 * be, and smaller ones let the worker pass a large opening on while the rest arrives.
 */
export const MAX_MESSAGE_BYTES = 1 << 20;

/**
 * How often the worker says what its client took: workerd's WebSocket has no `bufferedAmount`
 * and queues what is sent without a limit, so the worker sends a text message with the byte
 * count each time `ACK_BYTES` more were taken. Small, so that a client taking 64 KiB in ten
 * seconds keeps its object awake: the bytes that wait for it leave memory with an object that
 * hibernates, and the stream then ends.
 */
export const ACK_BYTES = 64 * 1024;
/**
 * How far the object runs ahead of a stream's client: what it sent and was not told of; the
 * rest waits in the object as parts of the encodings the list shares among its streams. It
 * holds the largest message and what the client took untold, so a stream never stalls.
 */
export const SEND_WINDOW_BYTES = 2 * MAX_MESSAGE_BYTES;

/**
 * The most the worker queues for a client: what its socket and the one before sent (the new
 * object is told of what the client takes only once the old bytes are taken), and a margin as
 * on Node. More means an object that does not keep to its window: the client is dropped.
 */
export const RELAY_QUEUE_BYTES = 2 * SEND_WINDOW_BYTES + MAX_BACKLOG_BYTES;

/** The object's close code for a stream too far behind: the worker drops its client. */
export const STREAM_BEHIND = 4001;

const LF = 0x0a;
const decoder = new TextDecoder();

/**
 * `bytes`, whole SSE messages, as WebSocket messages: whole SSE messages together up to
 * `MAX_MESSAGE_BYTES`, and one larger than that cut into pieces of that size.
 */
export function* messagesOf(bytes: Uint8Array): Generator<Uint8Array> {
  let start = 0;
  while (bytes.byteLength - start > MAX_MESSAGE_BYTES) {
    let end = start;
    for (let next = endOfMessage(bytes, start); next !== -1; next = endOfMessage(bytes, next)) {
      if (next - start > MAX_MESSAGE_BYTES) break;
      end = next;
    }
    if (end === start) end = start + MAX_MESSAGE_BYTES;
    yield bytes.subarray(start, end);
    start = end;
  }
  if (start < bytes.byteLength) yield bytes.subarray(start);
}

/** Where the SSE message at `start` ends, after its blank line; -1 when it does not. */
function endOfMessage(bytes: Uint8Array, start: number): number {
  for (let at = bytes.indexOf(LF, start); at !== -1; at = bytes.indexOf(LF, at + 1)) {
    if (bytes[at + 1] === LF) return at + 2;
  }
  return -1;
}

/**
 * Whether `bytes`, an opening without its `retry`, begin with a snapshot: the object could not
 * go on from the id it was given.
 */
export function startsWithSnapshot(bytes: Uint8Array): boolean {
  const head = decoder.decode(bytes.subarray(0, 200));
  return /^(?:id: [^\n]*\n)?event: snapshot\n/.test(head);
}

/** `bytes` without an opening's `retry` message, which the client was sent already. */
export function withoutRetry(bytes: Uint8Array): Uint8Array {
  const retry = /^retry: \d+\n\n/.exec(decoder.decode(bytes.subarray(0, 40)));
  return retry === null ? bytes : bytes.subarray(retry[0].length);
}

/** The longest line read as a possible `id` field; an id is short, a data line may be huge. */
const LONGEST_ID_LINE = 256;
const ID_FIELD = /^id: ?(.*)$/;
const ID_START = 'i'.charCodeAt(0);

/**
 * Follows the SSE messages in a stream's bytes as they are passed on (LF-ended lines, as the
 * handler writes them), holding no more of them than the start of the line they end in.
 */
export class PassedMessages {
  /** The id of the last whole message that had one: where the stream resumes. */
  lastId: string | undefined;
  #idInMessage: string | undefined;
  #lineStart: Uint8Array = new Uint8Array(0);
  #lineBytes = 0;
  #inMessage = false;

  constructor(lastId: string | undefined) {
    this.lastId = lastId;
  }

  /** Whether what was passed ends a message: the stream can go on from `lastId` as it is. */
  get atMessageEnd(): boolean {
    return !this.#inMessage && this.#lineBytes === 0;
  }

  pass(bytes: Uint8Array): void {
    let start = 0;
    for (let end = bytes.indexOf(LF); end !== -1; end = bytes.indexOf(LF, start)) {
      this.#extendLine(bytes.subarray(start, end));
      this.#endLine();
      start = end + 1;
    }
    this.#extendLine(bytes.subarray(start));
  }

  #extendLine(part: Uint8Array): void {
    if (part.byteLength === 0) return;
    // Only a line that may be an `id` field is kept: a data line, the most, is only counted.
    const kept = this.#lineBytes === 0 ? part[0] === ID_START : this.#lineStart.byteLength > 0;
    const room = LONGEST_ID_LINE - this.#lineStart.byteLength;
    if (kept && room > 0) {
      this.#lineStart = concatBytes([this.#lineStart, part.subarray(0, room)]);
    }
    this.#lineBytes += part.byteLength;
  }

  #endLine(): void {
    if (this.#lineBytes === 0) {
      if (this.#inMessage && this.#idInMessage !== undefined) this.lastId = this.#idInMessage;
      this.#idInMessage = undefined;
      this.#inMessage = false;
    } else {
      const id = this.#lineStart.byteLength > 0 && ID_FIELD.exec(decoder.decode(this.#lineStart));
      if (id && this.#lineBytes <= LONGEST_ID_LINE) this.#idInMessage = id[1];
      this.#inMessage = true;
    }
    this.#lineStart = new Uint8Array(0);
    this.#lineBytes = 0;
  }
}
