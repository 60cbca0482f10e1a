import { setTimeout as sleep } from 'node:timers/promises';
import { ChurningClient, type ClientDeps } from './churning-client.ts';
import type { ListRead } from './list-read.ts';

/** Once the traffic stops, a connected client has this long to get the last change. */
const CATCH_UP_MS = 10_000;

/** The event clients, all coming and going at once. */
export class ChurningClients {
  readonly #clients: ChurningClient[];
  readonly #deps: ClientDeps;
  #running: Promise<void[]> | undefined;

  constructor(deps: ClientDeps, count: number) {
    this.#deps = deps;
    // The first stays connected throughout, so every change has at least one receiver.
    this.#clients = Array.from(
      { length: count },
      (_, index) => new ChurningClient(deps, index + 1, index === 0),
    );
  }

  start(): void {
    this.#running = Promise.all(this.#clients.map((client) => client.run()));
  }

  /**
   * Resolves once every client has had a stream open, and the steady one is connected, so
   * that no change made from now on escapes them all.
   */
  async allConnected(): Promise<void> {
    const steady = this.#clients[0];
    while (
      this.#clients.some((client) => !client.opened) ||
      (steady !== undefined && steady.streamSeq === undefined)
    ) {
      await sleep(20);
    }
  }

  /**
   * Each client still connected must get every change up to `final` and then leave;
   * one that has not within the catch-up time missed events.
   */
  async finish(final: ListRead): Promise<void> {
    for (const client of this.#clients) client.finish(final);
    const deadline = performance.now() + CATCH_UP_MS;
    while (this.#clients.some((client) => client.connected) && performance.now() < deadline) {
      await sleep(20);
    }
    for (const [index, client] of this.#clients.entries()) {
      if (!client.connected) continue;
      const at = client.streamSeq === undefined ? 'no opening yet' : `seq ${client.streamSeq}`;
      this.#deps.failures.add(
        'missed event',
        `event client ${index + 1}: at ${at}, ${CATCH_UP_MS / 1000} s after the list reached seq ${final.seq}`,
      );
      client.close();
    }
    await this.#running;
  }
}
