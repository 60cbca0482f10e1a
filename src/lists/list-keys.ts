import { listStillBeingMade, listToReplay, type KeyedList } from './keyed-lists.ts';
import type { StoredList } from '../todos/store.ts';

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

  /** `kept` is as `ListStores.keptKeys` gives it: deleted lists' keys in deletion order. */
  constructor(kept: Iterable<KeyedList>, isHeld: (listId: string) => boolean, keepDeleted: number) {
    this.#keepDeleted = keepDeleted;
    for (const keyed of kept) {
      this.#keys.set(keyed.idempotencyKey, keyed);
      if (isHeld(keyed.made.list.id)) this.#keyOfList.set(keyed.made.list.id, keyed.idempotencyKey);
      else this.#remember(keyed.idempotencyKey);
    }
  }

  /** The earlier create's answer for `key`, if there was one; throws 409, 410 or 422. */
  replay(key: string, title: string, isHeld: (listId: string) => boolean): StoredList | undefined {
    const keyed = this.#keys.get(key);
    if (keyed === BEING_MADE) throw listStillBeingMade();
    return keyed && listToReplay(keyed, title, isHeld(keyed.made.list.id));
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
    this.#keyOfList.set(keyed.made.list.id, keyed.idempotencyKey);
  }

  /** Once `listId` is deleted: its key joins the deleted ones, and the oldest beyond the bound go. */
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
