/**
 * Where one client's events go. The handler writes bytes and learns when the client is gone;
 * how the bytes reach the socket is the host's business, and so is the response that carries
 * them, since only the host knows which body its Response class takes.
 */
export interface EventChannel {
  /** Bytes that may still be queued before the client counts as stalled; null once it failed. */
  readonly room: number | null;
  write(bytes: Uint8Array): void;
  /** Ends the stream after what is queued: the server is stopping. */
  close(): void;
  /** Ends the stream now, dropping what is queued: the client left or fell too far behind. */
  abort(): void;
  /** `listener` runs when the client is gone: the stream was cancelled or a write failed. */
  onGone(listener: () => void): void;
  /** The response whose body is this channel's stream. */
  respond(init: ResponseInit): Response;
}

/** Opens a channel that queues up to `queueBytes` bytes for a client that reads slowly. */
export type OpenEventChannel = (queueBytes: number) => EventChannel;

/**
 * A channel made of a web `TransformStream`, for any host. A failed write is the only sign
 * some hosts give that a client left (workerd's worker may not hear of the abort), so the
 * writer is kept and every write can fail.
 */
export const openWebEventChannel: OpenEventChannel = (queueBytes) => {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, {
    highWaterMark: queueBytes,
    size: (chunk) => chunk.byteLength,
  });
  const writer = writable.getWriter();
  let gone = () => {};
  const leave = () => gone();
  // A cancelled stream errors the writer; closing it ourselves resolves `closed` instead.
  writer.closed.catch(leave);
  return {
    get room() {
      return writer.desiredSize;
    },
    write: (bytes) => void writer.write(bytes).catch(leave),
    close: () => void writer.close().catch(() => {}),
    abort: () => void writer.abort(new Error('The client left.')).catch(() => {}),
    onGone: (listener) => {
      gone = listener;
    },
    respond: (init) => new Response(readable, init),
  };
};
