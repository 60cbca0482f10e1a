import { concatBytes } from '../../http/body.ts';
import { MAX_BACKLOG_BYTES } from '../../live/event-channel.ts';

// How a list's object and the worker that carries one of its event streams speak over their
// WebSocket (docs/hosts.md, Event streams on workerd).

/** How the worker reopens a lost socket: a short first wait, doubled, jittered, then given up. */
export const RECONNECT = { firstDelayMs: 250, maxDelayMs: 4000, attempts: 6, steadyMs: 10_000 };

/** The object's close code: the stream ends. A socket closed otherwise lost its object. */
export const STREAM_ENDED = 1000;

export function endStream(socket: WebSocket, code = STREAM_ENDED): void {
  try {
    socket.close(code);
  } catch {
    // Closed already: there is no one left to tell.
  }
}

/** workerd refuses a message over 32 MiB; smaller ones pass a large opening on as it comes. */
export const MAX_MESSAGE_BYTES = 1 << 20;

/** workerd's WebSocket has no `bufferedAmount`: the worker tells each 64 KiB its client took. */
export const ACK_BYTES = 64 * 1024;
/**
 * How far the object runs ahead of what its client took: the largest message plus what was taken
 * but not yet acknowledged, so a stream never stalls.
 */
export const SEND_WINDOW_BYTES = 2 * MAX_MESSAGE_BYTES;

/** The windows of a socket and the one before it (taken first), and a margin as on Node. */
export const RELAY_QUEUE_BYTES = 2 * SEND_WINDOW_BYTES + MAX_BACKLOG_BYTES;

/** The object's close code for a stream too far behind: the worker drops its client. */
export const STREAM_BEHIND = 4001;

const LF = 0x0a;
const decoder = new TextDecoder();

/** Whole SSE messages as WebSocket messages of at most `MAX_MESSAGE_BYTES`, a larger one cut. */
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

/** Whether an opening without its `retry` is a snapshot: the object could not go on by id. */
export function startsWithSnapshot(bytes: Uint8Array): boolean {
  return /^(?:id: [^\n]*\n)?event: snapshot\n/.test(decoder.decode(bytes.subarray(0, 200)));
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

/** Follows the SSE messages passed on (LF-ended), keeping only the start of a possible id line. */
export class PassedMessages {
  #idInMessage: string | undefined;
  #lineStart: Uint8Array = new Uint8Array(0);
  #lineBytes = 0;
  #inMessage = false;

  /** `lastId`: the id of the last whole message that had one, where the stream resumes. */
  constructor(public lastId: string | undefined) {}

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
