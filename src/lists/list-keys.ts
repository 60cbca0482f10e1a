import { HttpProblem } from '../http/problem.ts';
import { IDEMPOTENCY_KEY } from '../http/request.ts';
import type { KeyedList } from '../storage/list-rows.ts';
import type { StoredList } from '../store/changes.ts';

/**
 * The answer to a list create with `title` whose key made `keyed`, as the first answer was:
 * 422 when the key made a list of another title, 410 once that list is deleted, so that a
 * key never brings a deleted list back. "The same body" is the same title, as validated.
 */
export function listToReplay(keyed: KeyedList, title: string, exists: boolean): StoredList {
  if (keyed.made.info.title !== title) {
    throw new HttpProblem(
      422,
      `This ${IDEMPOTENCY_KEY} was used to make a list with another title; ` +
        'send a new key for a different list.',
    );
  }
  if (!exists) {
    throw new HttpProblem(
      410,
      `The list this ${IDEMPOTENCY_KEY} made has been deleted; send a new key to make another.`,
    );
  }
  return keyed.made;
}

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
  constructor(kept: Iterable<KeyedList>, exists: (listId: string) => boolean, keepDeleted: number) {
    this.#keepDeleted = keepDeleted;
    for (const keyed of kept) {
      this.#keys.set(keyed.idempotencyKey, keyed);
      if (exists(keyed.made.info.id)) this.#keyOfList.set(keyed.made.info.id, keyed.idempotencyKey);
      else this.#remember(keyed.idempotencyKey);
    }
  }

  /** The earlier create's answer for `key`, if there was one; throws 409, 410 or 422. */
  replay(key: string, title: string, exists: (listId: string) => boolean): StoredList | undefined {
    const keyed = this.#keys.get(key);
    if (keyed === BEING_MADE) {
      throw new HttpProblem(
        409,
        `The first request with this ${IDEMPOTENCY_KEY} is still being handled; ` +
          'retry once it is answered.',
      );
    }
    return keyed && listToReplay(keyed, title, exists(keyed.made.info.id));
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
