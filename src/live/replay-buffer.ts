import type { ChangeHistory } from '../todos/store.ts';
import type { ChangeEvent } from './events.ts';

/**
 * The latest changes, kept so that a client reconnecting with the id of the last event it saw
 * gets exactly the changes it missed. Ids are only compared, never parsed: an id this buffer
 * does not hold (another run's, a made-up one, one too old) cannot be answered.
 */
export class ReplayBuffer {
  readonly #limit: number;
  readonly #changes: ChangeEvent[] = [];
  /** The id of the list just before the oldest change kept. */
  #baseId: string;

  /**
   * `history` holds the changes kept from before this run of the server (none without durable
   * storage); `limit` is how many changes to keep (0: none).
   */
  constructor(history: ChangeHistory, limit: number) {
    this.#baseId = history.baseId;
    this.#limit = limit;
    for (const change of history.changes) this.record(change);
  }

  record(change: ChangeEvent): void {
    if (this.#limit === 0) {
      this.#baseId = change.id;
      return;
    }
    this.#changes.push(change);
    if (this.#changes.length > this.#limit) this.#baseId = this.#changes.shift()!.id;
  }

  /** The newest change kept that `matches`, if any. */
  findLatest(matches: (change: ChangeEvent) => boolean): ChangeEvent | undefined {
    return this.#changes.findLast(matches);
  }

  /** The changes after the one with `id`, oldest first, or undefined when it is not known. */
  since(id: string): readonly ChangeEvent[] | undefined {
    if (id === this.#baseId) return this.#changes.slice();
    // A reconnecting client has usually missed little: search from the newest.
    for (let index = this.#changes.length - 1; index >= 0; index -= 1) {
      if (this.#changes[index]!.id === id) return this.#changes.slice(index + 1);
    }
    return undefined;
  }
}
