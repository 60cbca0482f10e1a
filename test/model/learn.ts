import type { TodoJson } from '../support/api.ts';
import type { ListJson } from '../support/lists.ts';
import type { Answer } from './answer.ts';
import type { ListsModel } from './lists-model.ts';
import { statusOf, type Expected } from './predict.ts';
import type { WireRequest } from './wire.ts';

/**
 * Moves the model on by the request, taking from the answer only what the model cannot know
 * itself: a new item's or list's id, and ETags. Every change goes into its list's log, which
 * is what that list's streams must tell.
 *
 * Every test needs the model in step with the service, whatever else it checks; a status the
 * model did not expect leaves it nothing to go on, so that fails here, whichever test runs.
 */
export function learn(
  lists: ListsModel,
  request: WireRequest,
  expected: Expected,
  answer: Answer,
): void {
  if (answer.status !== statusOf(expected)) {
    throw new Error(
      `${request.method} ${request.path} answered ${answer.status} where the model expected ` +
        `${statusOf(expected)} (${expected.kind}): ${answer.text}`,
    );
  }
  const etag = answer.headers.get('etag') ?? undefined;
  const command = JSON.stringify(request.spec);
  if (expected.kind === 'list-created') {
    const { id, viewId } = JSON.parse(answer.text) as ListJson;
    lists.create({ id, title: expected.title, viewId }, etag);
    return;
  }
  const list = lists.find(request.listId ?? '');
  if (list === undefined) return;
  const { items } = list;
  switch (expected.kind) {
    case 'created': {
      const { id } = JSON.parse(answer.text) as TodoJson;
      const todo = { id, title: expected.title, completed: expected.completed };
      items.create(todo, etag);
      return list.logItemChange({ type: 'created', todo }, command);
    }
    case 'replaced':
      items.replace(expected.todo, etag);
      return list.logItemChange({ type: 'updated', todo: expected.todo }, command);
    case 'deleted':
      items.delete(expected.todo.id);
      return list.logItemChange({ type: 'deleted', todo: expected.todo }, command);
    case 'list-renamed':
      return list.rename(expected.list.title, etag, command);
    case 'list-deleted':
      return lists.delete(list);
    case 'list':
    case 'not-modified':
      if (request.spec.op === 'list' && items.listEtag === undefined && etag !== undefined) {
        list.learnVersion(etag);
      }
      return;
    default:
      return;
  }
}
