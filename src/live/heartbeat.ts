/** A comment line: it keeps proxies from closing a quiet stream, and finds clients that left. */
export const PING = new TextEncoder().encode(': ping\n\n');

/** One timer for all the clients of a list, running only while there is one. */
export class Heartbeat {
  readonly #intervalMs: number;
  readonly #send: (bytes: Uint8Array) => void;
  #interval: ReturnType<typeof setInterval> | undefined;

  /** `send` writes the bytes to every open client. */
  constructor(intervalSeconds: number, send: (bytes: Uint8Array) => void) {
    this.#intervalMs = intervalSeconds * 1000;
    this.#send = send;
  }

  get running(): boolean {
    return this.#interval !== undefined;
  }

  start(): void {
    this.#interval ??= setInterval(() => this.#send(PING), this.#intervalMs);
  }

  stop(): void {
    if (this.#interval === undefined) return;
    clearInterval(this.#interval);
    this.#interval = undefined;
  }
}
