/**
 * How a list's object and the worker that carries one of its event streams speak over their
 * WebSocket. The object sends the stream's bytes as they are written, one binary message a write:
 * first the opening (`retry`, then the snapshot or the changes the client missed), then one
 * event a message. The close code says what the worker does next.
 */

/** The stream ends here (the list was deleted): the worker ends its client's stream too. */
export const STREAM_ENDED = 1000;

/**
 * The object started again with its list in memory, which started again with it: the worker
 * reconnects, and learns there that its client must start over.
 */
export const STREAM_RESTARTED = 4000;

const LF = 0x0a;
const ID_FIELD = new TextEncoder().encode('id: ');
const decoder = new TextDecoder();

/** The id of the last event in `bytes`, one or more whole SSE messages, if any has one. */
export function lastEventIdIn(bytes: Uint8Array): string | undefined {
  let found: Uint8Array | undefined;
  for (let start = 0; start < bytes.byteLength;) {
    if (ID_FIELD.every((byte, index) => bytes[start + index] === byte)) {
      found = bytes.subarray(start + ID_FIELD.byteLength, bytes.indexOf(LF, start));
    }
    const end = endOfMessage(bytes, start);
    if (end === -1) break;
    start = end;
  }
  return found && decoder.decode(found);
}

/** Where the message at `start` ends, after its blank line; -1 when it does not. */
function endOfMessage(bytes: Uint8Array, start: number): number {
  for (let at = bytes.indexOf(LF, start); at !== -1; at = bytes.indexOf(LF, at + 1)) {
    if (bytes[at + 1] === LF) return at + 2;
  }
  return -1;
}

/** Whether an opening gives the whole list: after `retry`, a snapshot. */
export function opensWithSnapshot(opening: Uint8Array): boolean {
  const head = decoder.decode(opening.subarray(0, 200));
  return /^retry: \d+\n\n(?:id: [^\n]*\n)?event: snapshot\n/.test(head);
}

/** The opening without its `retry` field, which the client was sent already. */
export function withoutRetry(opening: Uint8Array): Uint8Array {
  const end = endOfMessage(opening, 0);
  return end === -1 ? opening : opening.subarray(end);
}
