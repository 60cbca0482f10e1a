import type { ChangeEvent } from '../live/events.ts';
import { ReplayBuffer } from '../live/replay-buffer.ts';
import type { ChangeHistory, ChangeListener } from './store.ts';

/**
 * Where a list's changes go once they are durable: to its subscribers, and into the replay
 * buffer that clients resume from.
 */
export class Announcements {
  readonly #listeners = new Set<ChangeListener>();
  readonly #replay: ReplayBuffer;
  readonly #reportError: (error: unknown) => void;

  /** `history` and `keepChanges` as the replay buffer takes them. */
  constructor(history: ChangeHistory, keepChanges: number, reportError: (error: unknown) => void) {
    this.#replay = new ReplayBuffer(history, keepChanges);
    this.#reportError = reportError;
  }

  /** Returns the function that ends the subscription. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  since(eventId: string): readonly ChangeEvent[] | undefined {
    return this.#replay.since(eventId);
  }

  /** The newest change kept for clients that resume that `matches`, if any. */
  findLatest(matches: (change: ChangeEvent) => boolean): ChangeEvent | undefined {
    return this.#replay.findLatest(matches);
  }

  /** A listener's exception is reported; it never undoes the change or stops other listeners. */
  announce(change: ChangeEvent): void {
    this.#replay.record(change);
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}
