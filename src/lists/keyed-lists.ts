import { IDEMPOTENCY_KEY } from '../http/idempotency-key.ts';
import { HttpProblem } from '../http/problem.ts';
import type { StoredList } from '../todos/store.ts';

/** A list made by a create sent with an `Idempotency-Key`: the key, and that create's answer. */
export interface KeyedList {
  readonly idempotencyKey: string;
  /** The list as the create answered: its id, the title it was made with, its first ETag. */
  readonly made: StoredList;
}

/**
 * The answer to a list create with `title` whose key made `keyed`, as the first answer was:
 * 422 when the key made a list of another title, 410 once that list is deleted, so that a
 * key never brings a deleted list back. "The same body" is the same title, as validated.
 */
export function listToReplay(keyed: KeyedList, title: string, held: boolean): StoredList {
  if (keyed.made.list.title !== title) {
    throw new HttpProblem(
      422,
      `This ${IDEMPOTENCY_KEY} was used to make a list with another title; ` +
        'send a new key for a different list.',
    );
  }
  if (!held) {
    throw new HttpProblem(
      410,
      `The list this ${IDEMPOTENCY_KEY} made has been deleted; send a new key to make another.`,
    );
  }
  return keyed.made;
}

/** The answer while the first create with the same key is still being made. */
export function listStillBeingMade(): HttpProblem {
  return new HttpProblem(
    409,
    `The first request with this ${IDEMPOTENCY_KEY} is still being handled; ` +
      'retry once it is answered.',
  );
}
