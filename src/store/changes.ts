import { HttpProblem } from '../http/problem.ts';
import { IDEMPOTENCY_KEY } from '../http/request.ts';
import type { ListInfo, Todo, TodoFields } from '../model/resources.ts';

/**
 * An item at one version: the item, the version (its ETag, the id of the event that made it),
 * and its JSON, encoded once for every answer, stored row and event that carries it. Every
 * version is a new object, never one changed in place.
 */
export interface StoredTodo {
  readonly todo: Todo;
  readonly version: string;
  readonly json: string;
}

/** A list's id and title at one version (the list resource's ETag), with their JSON. */
export interface StoredList {
  readonly info: ListInfo;
  readonly version: string;
  readonly json: string;
}

/**
 * A change of an item, as its event tells it: `id` is the event's id, and `item` the item it
 * made, or for `deleted` the item as it was. A create sent with an `Idempotency-Key` keeps it.
 */
export interface ItemChange {
  readonly type: 'created' | 'updated' | 'deleted';
  readonly id: string;
  readonly item: StoredTodo;
  readonly key?: string;
}

/** A named list's new title; `list.version` is the change's id. */
interface TitleChange {
  readonly type: 'list-renamed';
  readonly id: string;
  readonly list: StoredList;
}

/** Every change a list's store makes, in order; each is one event of its stream. */
export type Change = ItemChange | TitleChange;

/** The JSON a change's event carries: the item, or the list. */
export function jsonOf(change: Change): string {
  return change.type === 'list-renamed' ? change.list.json : change.item.json;
}

/** Changes in order, and the version of the list just before the first of them. */
export interface ChangeHistory {
  readonly baseId: string;
  readonly changes: readonly Change[];
}

/**
 * A list's latest changes, kept so that a client reconnecting with the id of the last event it
 * saw gets exactly the changes it missed, and a retried create finds what its key made. Ids
 * are only compared, never parsed: an id this history does not hold (another run's, a made-up
 * one, one too old) cannot be answered.
 */
export class History {
  readonly #limit: number;
  readonly #changes: Change[] = [];
  /** The id of the list just before the oldest change kept. */
  #baseId: string;

  /** `kept` holds the changes kept from before this run, if any; `limit` is how many to keep. */
  constructor(kept: ChangeHistory, limit: number) {
    this.#baseId = kept.baseId;
    this.#limit = limit;
    for (const change of kept.changes) this.record(change);
  }

  record(change: Change): void {
    if (this.#limit === 0) {
      this.#baseId = change.id;
      return;
    }
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

  /** The create made with `key`, while it is kept. */
  createdWith(key: string): ItemChange | undefined {
    return createdWith(this.#changes, key);
  }
}

/** Where a list that was kept starts again: its run, last sequence, title, items and history. */
export interface KeptList {
  readonly run: string;
  readonly sequence: number;
  readonly title: StoredList;
  readonly items: readonly StoredTodo[];
  readonly history: ChangeHistory;
}

/**
 * Writes `change` (the list's `sequence`th) to storage, then calls `done`, with the error if it
 * could not. Changes are done in the order they were written; when one fails, so does every
 * change written after it that is not yet done.
 */
export type Persist = (change: Change, sequence: number, done: (error?: unknown) => void) => void;

export interface ListStoreOptions {
  /** The list's id (`''` for the default list) and its first title, for a new list. */
  readonly info?: ListInfo;
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges: number;
  /** Where a listener's exception goes; it never undoes the change or stops other listeners. */
  readonly reportError: (error: unknown) => void;
  /** The list as storage kept it; else an empty list of a new run. */
  readonly start?: KeptList;
  /** Where changes are made durable; without it, the list lives in memory only. */
  readonly persist?: Persist;
}

/**
 * A new run's id: it tells a list that started again from the one before, and one list's event
 * ids from another's. 64 random bits, so that among many lists no two runs meet.
 */
export function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The latest create among `changes` that was made with `key`. */
export function createdWith(changes: readonly Change[], key: string): ItemChange | undefined {
  return changes.findLast(
    (change): change is ItemChange => change.type === 'created' && change.key === key,
  );
}

/**
 * The item to answer a create of `fields` with, whose `key` made `created` before, as its first
 * answer did: 409 while that create is not committed, 422 when it made an item of other fields.
 * "The same body" is the same validated create: the same title and completed.
 */
export function itemToReplay(created: ItemChange, committed: boolean, fields: TodoFields) {
  if (!committed) {
    throw new HttpProblem(
      409,
      `The first request with this ${IDEMPOTENCY_KEY} is still being handled; ` +
        'retry once it is answered.',
    );
  }
  const { todo } = created.item;
  if (todo.title !== fields.title || todo.completed !== fields.completed) {
    throw new HttpProblem(
      422,
      `This ${IDEMPOTENCY_KEY} was used for a create with another title or completed; ` +
        'send a new key for a different item.',
    );
  }
  return created.item;
}
