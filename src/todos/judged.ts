import { HttpProblem } from '../http/problem.ts';
import type { TodoStore } from './store.ts';

/** The refusals that depend on what a list holds: no such item, a stale If-Match, no room. */
const JUDGED_ON_THE_LIST = new Set([404, 412, 507]);

/**
 * The answer to a change of `store`'s list, whose conditions are checked against the latest
 * list. A refusal judged so waits until the changes made before it are durable, as their own
 * answers do, so that no answer tells of a change before the change's own answer could; should
 * one of them fail, the refusal fails too (a 500), since what it was judged against never was.
 */
export async function judgedOnLatest(
  store: TodoStore,
  answer: () => Promise<Response>,
): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof HttpProblem && JUDGED_ON_THE_LIST.has(error.status)) {
      await store.settled();
    }
    throw error;
  }
}
