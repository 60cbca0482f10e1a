import { concatBytes } from '../../http/body.ts';

/**
 * How a list's object and the worker that carries one of its event streams speak over their
 * WebSocket. The object sends the stream's bytes as they are written, in binary messages of at
 * most `MAX_MESSAGE_BYTES`: first the opening (`retry`, then the snapshot or the changes the
 * client missed), then one event a message. It answers the WebSocket request with the opening's
 * size, so the worker can queue all of it for a client that reads slowly. When the object
 * closes a socket, the stream ends there; any other close means the object went away.
 */

/** The object ends the stream (the list was deleted, or started again with its object). */
export const STREAM_ENDED = 1000;

/** The size of the opening, on the object's answer to the WebSocket request; not for clients. */
export const OPENING_BYTES_HEADER = 'x-todo-opening-bytes';

/**
 * The largest message either side sends. workerd refuses a message over 32 MiB, and a list's
 * snapshot may be larger than that; smaller messages also let the worker pass a large opening
 * on while the rest arrives.
 */
export const MAX_MESSAGE_BYTES = 1 << 20;

const LF = 0x0a;
/** Longer than any id this protocol writes: a longer first line is no id of ours. */
const MAX_CUT_LINE_BYTES = 256;
const ID_FIELD = new TextEncoder().encode('id: ');
const decoder = new TextDecoder();

/**
 * `bytes`, one or more whole SSE messages, as WebSocket messages: whole SSE messages together
 * up to `MAX_MESSAGE_BYTES`, and one larger than that cut into pieces of that size.
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

/**
 * The id of the last event the worker passed on, read from the stream's bytes however they
 * were cut into messages: an `id` field counts only at the start of an SSE message.
 */
export class LastEventId {
  #id: string | undefined;
  /** How many line feeds ended what was read so far, up to two: two end an SSE message. */
  #endingFeeds = 2;
  /** The start of an SSE message cut before its first line ended: it may be an id. */
  #cutLine: Uint8Array | undefined;

  constructor(id: string | undefined) {
    this.#id = id;
  }

  get value(): string | undefined {
    return this.#id;
  }

  read(message: Uint8Array): void {
    let bytes = message;
    // Where the first SSE message that begins in these bytes begins.
    let start =
      this.#endingFeeds === 2
        ? 0
        : this.#endingFeeds === 1 && bytes[0] === LF
          ? 1
          : endOfMessage(bytes, 0);
    if (this.#cutLine !== undefined) {
      bytes = concatBytes([this.#cutLine, message]);
      start = 0;
      this.#cutLine = undefined;
    }
    while (start !== -1 && start < bytes.byteLength) {
      const lineEnd = bytes.indexOf(LF, start);
      const field = bytes.subarray(start, start + ID_FIELD.byteLength);
      const isId = field.every((byte, index) => byte === ID_FIELD[index]);
      if (lineEnd === -1) {
        if (isId && bytes.byteLength - start <= MAX_CUT_LINE_BYTES) {
          this.#cutLine = bytes.slice(start);
        }
        break;
      }
      if (isId && field.byteLength === ID_FIELD.byteLength) {
        this.#id = decoder.decode(bytes.subarray(start + ID_FIELD.byteLength, lineEnd));
      }
      start = endOfMessage(bytes, start);
    }
    const size = bytes.byteLength;
    if (size === 0) return;
    if (bytes[size - 1] !== LF) this.#endingFeeds = 0;
    else if (size === 1) this.#endingFeeds = Math.min(this.#endingFeeds + 1, 2);
    else this.#endingFeeds = bytes[size - 2] === LF ? 2 : 1;
  }
}

/** Where the SSE message at `start` ends, after its blank line; -1 when it does not. */
function endOfMessage(bytes: Uint8Array, start: number): number {
  for (let at = bytes.indexOf(LF, start); at !== -1; at = bytes.indexOf(LF, at + 1)) {
    if (bytes[at + 1] === LF) return at + 2;
  }
  return -1;
}

/** Whether an opening, by its first message, gives the whole list: after `retry`, a snapshot. */
export function opensWithSnapshot(opening: Uint8Array): boolean {
  const head = decoder.decode(opening.subarray(0, 200));
  return /^retry: \d+\n\n(?:id: [^\n]*\n)?event: snapshot\n/.test(head);
}

/** The opening's first message without its `retry` field, which the client was sent already. */
export function withoutRetry(opening: Uint8Array): Uint8Array {
  const end = endOfMessage(opening, 0);
  return end === -1 ? opening : opening.subarray(end);
}
