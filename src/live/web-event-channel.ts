import { concatBytes } from '../http/body.ts';
import type { EventChannel, OpenEventChannel } from './event-channel.ts';

/** How long a dropped client has to take what its stream holds and see it end cleanly. */
export const DROPPED_CLIENT_GRACE_MS = 10_000;

/** The channel of a host that answers with a web `Response` and reads nothing back. */
export const openWebEventChannel: OpenEventChannel = (queueBytes) => webEventChannel(queueBytes);

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
        void writer.write(chunk).then(() => {
          held -= chunk.byteLength;
          taken?.(chunk.byteLength);
        }, leave);
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
