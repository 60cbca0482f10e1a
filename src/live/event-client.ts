/** One open event stream. Ending it, for whatever reason, releases everything it holds. */
export class EventClient {
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #signal: AbortSignal;
  readonly #onEnd: () => void;
  #unsubscribe: (() => void) | undefined;
  #ended = false;
  readonly #leave = () => this.#finish(true);

  constructor(
    writer: WritableStreamDefaultWriter<Uint8Array>,
    signal: AbortSignal,
    onEnd: () => void,
  ) {
    this.#writer = writer;
    this.#signal = signal;
    this.#onEnd = onEnd;
    // A cancelled stream errors the writer; closing it ourselves resolves `closed` instead.
    writer.closed.catch(this.#leave);
    signal.addEventListener('abort', this.#leave);
  }

  listenTo(unsubscribe: () => void): void {
    this.#unsubscribe = unsubscribe;
  }

  send(bytes: Uint8Array): void {
    if (this.#ended) return;
    const room = this.#writer.desiredSize;
    // null: the stream has errored; not positive: the client stopped reading long ago.
    if (room === null || room <= 0) return this.#leave();
    this.#writer.write(bytes).catch(this.#leave);
  }

  /** Closes the stream after what is queued: the server is stopping. */
  end(): void {
    this.#finish(false);
  }

  #finish(gone: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#unsubscribe?.();
    this.#signal.removeEventListener('abort', this.#leave);
    // For a client that left, drop what is queued for it at once.
    const ending = gone ? this.#writer.abort(new Error('The client left.')) : this.#writer.close();
    ending.catch(() => {});
    this.#onEnd();
  }
}
