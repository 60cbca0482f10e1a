const encoder = new TextEncoder();
const PING = encoder.encode(': ping\n\n');
const PING_START = encoder.encode(': ping\n');
const PING_END = encoder.encode('\n');
/**
 * Where a stream does not hear that its client left, a heartbeat is written in two parts, this
 * far apart. A Durable Object learns that a client left only when a write to it fails, and the
 * first write after the client left still succeeds: the second part makes the heartbeat itself
 * find the client gone. Where streams do hear it, the second part would only double the
 * heartbeat's cost: with thousands of streams, each part holds up a change for as long as the
 * change itself takes to reach them all.
 */
const PING_END_DELAY_MS = 250;

/** One timer for all the clients, running only while there is one. */
export class Heartbeat {
  readonly #intervalMs: number;
  readonly #send: (bytes: Uint8Array) => void;
  readonly #inTwoParts: boolean;
  #interval: ReturnType<typeof setInterval> | undefined;
  #end: ReturnType<typeof setTimeout> | undefined;

  /**
   * `send` writes the bytes to every open client; `inTwoParts` when the streams do not hear
   * that their client left.
   */
  constructor(intervalSeconds: number, send: (bytes: Uint8Array) => void, inTwoParts: boolean) {
    this.#intervalMs = intervalSeconds * 1000;
    this.#send = send;
    this.#inTwoParts = inTwoParts;
  }

  get running(): boolean {
    return this.#interval !== undefined;
  }

  start(): void {
    if (this.#interval !== undefined) return;
    this.#interval = setInterval(() => {
      if (!this.#inTwoParts) return this.#send(PING);
      this.#send(PING_START);
      this.#end = setTimeout(() => {
        this.#end = undefined;
        this.#send(PING_END);
      }, PING_END_DELAY_MS);
    }, this.#intervalMs);
  }

  stop(): void {
    if (this.#interval === undefined) return;
    clearInterval(this.#interval);
    if (this.#end !== undefined) clearTimeout(this.#end);
    this.#interval = this.#end = undefined;
  }
}
