import { Readable, type Writable } from 'node:stream';
import { Response as AdapterResponse } from '@whatwg-node/server';
import { concatBytes } from '../../http/body.ts';
import { DROPPED_CLIENT_GRACE_MS, type EventChannel } from '../../live/event-channel.ts';

/**
 * A client's events written straight to its response, a Readable only for the adapter to pipe
 * (docs/dependencies.md); what the response will not take waits here, for a drop to discard.
 */
export class NodeEventChannel extends Readable implements EventChannel {
  #response: Writable | undefined;
  #queue: Uint8Array[] = [];
  #queued = 0;
  #full = false;
  #ending = false;
  #cutTimer: NodeJS.Timeout | undefined;
  #gone = () => {};

  constructor(private readonly limit: number) {
    super();
  }

  write(bytes: Uint8Array): boolean {
    if (this.#ending || this.destroyed || this.#queued >= this.limit) return false;
    if (this.#response !== undefined && !this.#full && this.#queue.length === 0) {
      this.#full = !this.#response.write(bytes);
    } else {
      this.#queue.push(bytes);
      this.#queued += bytes.byteLength;
    }
    return true;
  }

  end(now: boolean): void {
    this.#ending = true;
    if (now && !this.destroyed) {
      this.#queue = [];
      this.#queued = 0;
      // One that never reads again would hold its connection for ever: it is cut.
      this.#cutTimer = setTimeout(this.#cut, DROPPED_CLIENT_GRACE_MS);
    }
    this.#flush();
  }

  onGone(listener: () => void): void {
    this.#gone = listener;
  }

  /** The adapter's Response takes a Node stream as its body; its exported type does not say so. */
  respond(init: ResponseInit): Response {
    return new AdapterResponse(this as unknown as ReadableStream<Uint8Array>, init);
  }

  /** The adapter's call, once the head is written; until then everything waits. */
  override pipe<T extends NodeJS.WritableStream>(response: T): T {
    this.#response = response as unknown as Writable;
    this.#response.on('drain', this.#drained);
    this.#flush();
    return response;
  }

  // Nothing reads the channel as a stream: it writes to the response itself.
  override _read(): void {}

  // The adapter destroys the body when the response closes: it is done, or the client left.
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.#cutTimer);
    this.#queue = [];
    this.#queued = 0;
    this.#response?.off('drain', this.#drained);
    this.#gone();
    callback(null);
  }

  readonly #drained = () => {
    this.#full = false;
    this.#flush();
  };

  // Destroying the response destroys its socket.
  readonly #cut = () => {
    this.#response?.destroy();
    this.destroy();
  };

  #flush(): void {
    const response = this.#response;
    // A response already closed (the client left) takes nothing more, not even its end.
    if (response === undefined || this.destroyed || response.destroyed) return;
    if (!this.#full && this.#queue.length > 0) {
      // What waited goes as one chunk of the body, as the web channel's queue does.
      const bytes = concatBytes(this.#queue);
      this.#queue = [];
      this.#queued = 0;
      this.#full = !response.write(bytes);
    }
    if (this.#ending && this.#queue.length === 0 && !response.writableEnded) response.end();
  }
}
