import type { ListInfo, Todo } from '../model/resources.ts';

/** An item at one version (its ETag: the id of the change that made it), and its JSON. */
export interface StoredTodo {
  readonly todo: Todo;
  readonly version: string;
  readonly json: string;
}

/** A list's id and title at one version (the list resource's ETag). */
export interface StoredList {
  readonly info: ListInfo;
  readonly version: string;
}

/** `item`: the item made, or for `deleted` as it was; `key`: a create's `Idempotency-Key`. */
export interface ItemChange {
  readonly type: 'created' | 'updated' | 'deleted';
  readonly id: string;
  readonly item: StoredTodo;
  readonly key?: string;
}

/** Every change a list's store makes, in order; each is one event of its stream. */
export type Change =
  ItemChange | { readonly type: 'list-renamed'; readonly id: string; readonly list: StoredList };

/**
 * A list's latest changes, for clients that resume from the last event id they saw. Ids are only
 * compared, never parsed: one not kept here (another run's, made up, too old) gets no answer.
 */
export class History {
  readonly #limit: number;
  readonly #changes: Change[] = [];
  /** The id of the list just before the oldest change kept. */
  #baseId: string;

  constructor(baseId: string, kept: readonly Change[], limit: number) {
    this.#baseId = baseId;
    this.#limit = limit;
    for (const change of kept) this.record(change);
  }

  record(change: Change): void {
    this.#changes.push(change);
    if (this.#changes.length > this.#limit) this.#baseId = this.#changes.shift()!.id;
  }

  /** The changes after the one with `id`, oldest first, or undefined when it is not kept. */
  since(id: string): readonly Change[] | undefined {
    if (id === this.#baseId) return this.#changes.slice();
    // A reconnecting client has usually missed little: search from the newest.
    for (let index = this.#changes.length - 1; index >= 0; index -= 1) {
      if (this.#changes[index]!.id === id) return this.#changes.slice(index + 1);
    }
    return undefined;
  }
}

/** How long (`limits.idempotencyKeyHours`) and how many (`limits.maxItems`) item keys are kept. */
export interface KeyBounds {
  readonly windowMs: number;
  readonly most: number;
}

/** A create's key, the item it made, and when (ms since the epoch). */
export interface KeptKey {
  readonly key: string;
  readonly item: StoredTodo;
  readonly at: number;
}

/** Where a kept list starts again: `changes` are the latest, the last the `sequence`th. */
export interface KeptList {
  readonly run: string;
  readonly sequence: number;
  readonly resource: StoredList;
  readonly items: readonly StoredTodo[];
  readonly changes: readonly Change[];
  /** Oldest first. */
  readonly keys: readonly KeptKey[];
}

/** Writes the list's `sequence`th change; when one fails, so does every later one not yet done. */
export type Persist = (change: Change, sequence: number, done: (error?: unknown) => void) => void;

export interface ListStoreOptions {
  /** The id (`''` for the default list) and first title of a new list. */
  readonly info?: ListInfo;
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges: number;
  readonly keys: KeyBounds;
  /** Where a listener's exception goes; it never undoes the change or stops other listeners. */
  readonly reportError: (error: unknown) => void;
  /** The list as storage kept it; else an empty list of a new run. */
  readonly start?: KeptList;
  /** Where changes are made durable; without it, the list lives in memory only. */
  readonly persist?: Persist;
}

/** A run's id tells one list's event ids from another's, and an earlier run's: 64 random bits. */
export function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
