import type { TodoJson } from '../support/api.ts';
import type { Answer } from './answer.ts';
import type { ModelChange, TodoModel } from './model.ts';
import { statusOf, type Expected } from './predict.ts';
import type { WireRequest } from './wire.ts';

/**
 * Moves the model on by the request, taking from the answer only what the model cannot know
 * itself: a new item's id, and ETags. Returns the change the request made, if any.
 *
 * Every test needs the model in step with the service, whatever else it checks; a status the
 * model did not expect leaves it nothing to go on, so that fails here, whichever test runs.
 */
export function learn(
  model: TodoModel,
  request: WireRequest,
  expected: Expected,
  answer: Answer,
): ModelChange | undefined {
  if (answer.status !== statusOf(expected)) {
    throw new Error(
      `${request.method} ${request.path} answered ${answer.status} where the model expected ` +
        `${statusOf(expected)} (${expected.kind}): ${answer.text}`,
    );
  }
  const etag = answer.headers.get('etag') ?? undefined;
  switch (expected.kind) {
    case 'created': {
      const { id } = JSON.parse(answer.text) as TodoJson;
      const todo = { id, title: expected.title, completed: expected.completed };
      model.create(todo, etag);
      return { type: 'created', todo };
    }
    case 'replaced':
      model.replace(expected.todo, etag);
      return { type: 'updated', todo: expected.todo };
    case 'deleted':
      model.delete(expected.todo.id);
      return { type: 'deleted', todo: expected.todo };
    case 'list':
    case 'not-modified':
      if (request.spec.op === 'list' && model.listEtag === undefined && etag !== undefined) {
        model.learnListEtag(etag);
      }
      return undefined;
    default:
      return undefined;
  }
}
