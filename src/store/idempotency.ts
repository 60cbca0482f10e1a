import { HttpProblem } from '../http/problem.ts';
import { IDEMPOTENCY_KEY } from '../http/request.ts';
import type { TodoFields } from '../model/resources.ts';
import type { KeptKey, KeyBounds, StoredList, StoredTodo } from './changes.ts';

/**
 * The keys of a list's committed item creates with the items made, so that a retry is answered
 * alike for `windowMs`, however much changed since. A Map's order is the order keys leave in.
 */
export class ItemKeys {
  readonly #keys = new Map<string, KeptKey>();
  readonly #windowMs: number;
  readonly #most: number;

  constructor({ windowMs, most }: KeyBounds, kept: readonly KeptKey[] = []) {
    this.#windowMs = windowMs;
    this.#most = most;
    for (const entry of kept) this.record(entry);
  }

  /** A key used again once forgotten moves to the end, as a new key. */
  record(entry: KeptKey): void {
    this.#keys.delete(entry.key);
    this.#keys.set(entry.key, entry);
    this.#forgetPastBounds(entry.at);
  }

  get(key: string): StoredTodo | undefined {
    const now = Date.now();
    this.#forgetPastBounds(now);
    const entry = this.#keys.get(key);
    return entry !== undefined && entry.at > now - this.#windowMs ? entry.item : undefined;
  }

  #forgetPastBounds(now: number): void {
    for (const [key, { at }] of this.#keys) {
      if (this.#keys.size <= this.#most && at > now - this.#windowMs) return;
      this.#keys.delete(key);
    }
  }
}

/** The 409 to a retried create (the same `Idempotency-Key`) while the first is not answered. */
export function firstRequestUnanswered(): HttpProblem {
  return new HttpProblem(
    409,
    `The first request with this ${IDEMPOTENCY_KEY} is still being handled; ` +
      'retry once it is answered.',
  );
}

/** A retried item create gets the first's item: 409 until that is committed, 422 if it differs. */
export function itemToReplay(item: StoredTodo, committed: boolean, fields: TodoFields) {
  if (!committed) throw firstRequestUnanswered();
  const { todo } = item;
  if (todo.title !== fields.title || todo.completed !== fields.completed) {
    throw new HttpProblem(
      422,
      `This ${IDEMPOTENCY_KEY} was used for a create with another title or completed; ` +
        'send a new key for a different item.',
    );
  }
  return item;
}

/** A retried list create: 422 for another title, 410 once deleted (a key never brings it back). */
export function listToReplay(made: StoredList, title: string, exists: boolean): StoredList {
  if (made.info.title !== title) {
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
  return made;
}
