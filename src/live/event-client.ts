import type { EventChannel } from './event-channel.ts';

/** One open event stream. Ending it, for whatever reason, releases everything it holds. */
export class EventClient {
  readonly #channel: EventChannel;
  readonly #signal: AbortSignal | undefined;
  readonly #onEnd: () => void;
  #ended = false;
  readonly #leave = () => this.#finish(true);

  /** `signal` is the request's, where the stream still has one. */
  constructor(channel: EventChannel, signal: AbortSignal | undefined, onEnd: () => void) {
    this.#channel = channel;
    this.#signal = signal;
    this.#onEnd = onEnd;
    channel.onGone(this.#leave);
    signal?.addEventListener('abort', this.#leave);
  }

  send(bytes: Uint8Array): void {
    if (this.#ended) return;
    const room = this.#channel.room;
    // null: the stream has failed; not positive: the client stopped reading long ago.
    if (room === null || room <= 0) return this.#leave();
    this.#channel.write(bytes);
  }

  /** Closes the stream after what is queued: the server is stopping. */
  end(): void {
    this.#finish(false);
  }

  #finish(gone: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#signal?.removeEventListener('abort', this.#leave);
    // For a client that left, drop what is queued for it at once.
    if (gone) this.#channel.abort();
    else this.#channel.close();
    this.#onEnd();
  }
}
