import type { KeyedList } from '../storage/list-rows.ts';
import { firstRequestUnanswered, listToReplay, type StoredList } from '../store/changes.ts';

/** A key whose create is under way. */
const BEING_MADE = 'being made';

/**
 * The keys a process's lists were made with: every live list's, and the deleted lists' of the
 * latest `keepDeleted` deletions (of lists made with a key), so that those keys answer 410 and
 * cannot make their list again. An older deleted list's key is forgotten, and makes a new list.
 */
export class ListKeys {
  readonly #keys = new Map<string, KeyedList | typeof BEING_MADE>();
  readonly #keyOfList = new Map<string, string>();
  /** Deleted lists' keys, the oldest deletion first. */
  readonly #deleted = new Set<string>();
  readonly #keepDeleted: number;
  /** Whether the list is there, neither deleted nor being deleted. */
  readonly #exists: (listId: string) => boolean;

  /** `kept`: as `ListStores.keptKeys` gives them, deleted lists' keys in deletion order. */
  constructor(kept: Iterable<KeyedList>, exists: (listId: string) => boolean, keepDeleted: number) {
    this.#keepDeleted = keepDeleted;
    this.#exists = exists;
    for (const keyed of kept) {
      this.#keys.set(keyed.idempotencyKey, keyed);
      if (exists(keyed.made.info.id)) this.#keyOfList.set(keyed.made.info.id, keyed.idempotencyKey);
      else this.#remember(keyed.idempotencyKey);
    }
  }

  /** The earlier create's answer for `key`, if there was one; throws 409, 410 or 422. */
  replay(key: string, title: string): StoredList | undefined {
    const keyed = this.#keys.get(key);
    if (keyed === BEING_MADE) throw firstRequestUnanswered();
    return keyed && listToReplay(keyed.made, title, this.#exists(keyed.made.info.id));
  }

  beginMaking(key: string): void {
    this.#keys.set(key, BEING_MADE);
  }

  /** Forgets a key whose create failed, so that a retry makes the list. */
  abandon(key: string): void {
    this.#keys.delete(key);
  }

  made(keyed: KeyedList): void {
    this.#keys.set(keyed.idempotencyKey, keyed);
    this.#keyOfList.set(keyed.made.info.id, keyed.idempotencyKey);
  }

  /** `listId` is deleted: its key joins the deleted ones, the oldest beyond the bound go. */
  deleted(listId: string): void {
    const key = this.#keyOfList.get(listId);
    if (key === undefined) return;
    this.#keyOfList.delete(listId);
    this.#remember(key);
  }

  #remember(key: string): void {
    this.#deleted.add(key);
    for (const oldest of this.#deleted) {
      if (this.#deleted.size <= this.#keepDeleted) break;
      this.#deleted.delete(oldest);
      this.#keys.delete(oldest);
    }
  }
}
