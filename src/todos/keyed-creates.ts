import { HttpProblem } from '../http/problem.ts';
import { IDEMPOTENCY_KEY } from '../http/idempotency-key.ts';
import type { ChangeEvent, TodoChange } from '../live/events.ts';
import type { StoredTodo } from './store.ts';
import type { TodoFields } from './todo.ts';

/** The create a key made, and whether it is durable yet, as a list remembers it. */
export interface KeyedCreate {
  readonly change: TodoChange;
  readonly durable: boolean;
}

/** Where a list keeps its changes: those waiting to be durable, and those kept for replay. */
interface ChangesHeld {
  findLatest(matches: (change: ChangeEvent) => boolean): ChangeEvent | undefined;
}

/**
 * The create that `key` made, looked for among the changes still waiting to be durable and
 * then among those kept for clients that resume: a key is remembered while its change is.
 */
export function createdWith(
  key: string,
  pending: ChangesHeld,
  kept: ChangesHeld,
): KeyedCreate | undefined {
  const matches = (change: ChangeEvent) =>
    change.type === 'created' && change.idempotencyKey === key;
  const waiting = pending.findLatest(matches) as TodoChange | undefined;
  if (waiting !== undefined) return { change: waiting, durable: false };
  const made = kept.findLatest(matches) as TodoChange | undefined;
  return made && { change: made, durable: true };
}

/**
 * The item to answer a create with `fields` again with, as its first answer did: 409 while
 * that first create is not yet durable, 422 when the key made an item of other fields.
 * "The same body" is the same validated create: the same title and completed.
 */
export function itemToReplay({ change, durable }: KeyedCreate, fields: TodoFields): StoredTodo {
  const { todo } = change;
  if (!durable) {
    throw new HttpProblem(
      409,
      `The first request with this ${IDEMPOTENCY_KEY} is still being handled; ` +
        'retry once it is answered.',
    );
  }
  if (todo.title !== fields.title || todo.completed !== fields.completed) {
    throw new HttpProblem(
      422,
      `This ${IDEMPOTENCY_KEY} was used for a create with another title or completed; ` +
        'send a new key for a different item.',
    );
  }
  return { todo, version: change.id };
}
