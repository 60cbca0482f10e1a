/** What a host or a test can see of the open streams. */
export interface EventStreamStats {
  readonly openCount: number;
  readonly heartbeatRunning: boolean;
}

/**
 * The open event streams of all of an app's lists, and their running heartbeats, counted as
 * they come and go: a stream still open on a list that was deleted is counted until it ends.
 */
export class StreamTally implements EventStreamStats {
  #open = 0;
  #heartbeats = 0;

  get openCount(): number {
    return this.#open;
  }

  get heartbeatRunning(): boolean {
    return this.#heartbeats > 0;
  }

  streamOpened(): void {
    this.#open += 1;
  }

  streamEnded(): void {
    this.#open -= 1;
  }

  heartbeatStarted(): void {
    this.#heartbeats += 1;
  }

  heartbeatStopped(): void {
    this.#heartbeats -= 1;
  }
}
