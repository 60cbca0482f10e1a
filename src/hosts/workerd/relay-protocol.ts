/**
 * How a list's object and the worker that carries one of its event streams speak over their
 * WebSocket. The object sends the stream's bytes in binary messages, and after each write that
 * holds events with ids, the last id as a text message: the worker resumes after the last id it
 * was sent, so an event counts as passed on only once all of it has come.
 */

/** The object's close code: the stream ends. A socket closed otherwise lost its object. */
export const STREAM_ENDED = 1000;

/** Ends the stream on `socket`, which may have closed already. */
export function endStream(socket: WebSocket): void {
  try {
    socket.close(STREAM_ENDED);
  } catch {
    // Closed already: there is no one left to tell.
  }
}

/** The opening's size, on the object's answer, so the worker can queue it all for a slow client. */
export const OPENING_BYTES_HEADER = 'x-todo-opening-bytes';

/**
 * The largest message either side sends: workerd refuses one over 32 MiB, which a snapshot may
 * be, and smaller ones let the worker pass a large opening on while the rest arrives.
 */
export const MAX_MESSAGE_BYTES = 1 << 20;

const LF = 0x0a;

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

/** Whether an opening, by its first message, gives the whole list: after `retry`, a snapshot. */
export function opensWithSnapshot(opening: Uint8Array): boolean {
  const head = new TextDecoder().decode(opening.subarray(0, 200));
  return /^retry: \d+\n\n(?:id: [^\n]*\n)?event: snapshot\n/.test(head);
}

/** The opening's first message without its `retry` field, which the client was sent already. */
export function withoutRetry(opening: Uint8Array): Uint8Array {
  const end = endOfMessage(opening, 0);
  return end === -1 ? opening : opening.subarray(end);
}
