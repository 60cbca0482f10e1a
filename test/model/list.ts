import { expect } from 'vitest';
import type { TestService } from '../support/hosts.ts';
import { newVersion } from './answer.ts';
import type { TodoModel } from './model.ts';

/**
 * Whether `GET /api/todos` holds exactly the model's items, in order, under the ETag the model
 * knows: the one it had if nothing changed, the change's own after a create or update, a new
 * one after a delete (whose answer does not tell it).
 */
export async function expectListAsModel(
  service: TestService,
  model: TodoModel,
  after: string,
): Promise<void> {
  const response = await service.fetch('/api/todos');
  const etag = response.headers.get('etag');
  const todos: unknown = await response.json();
  expect({ status: response.status, todos, etag }, `the list after ${after}`).toEqual({
    status: 200,
    todos: model.items,
    etag: model.listEtag ?? newVersion(model),
  });
  if (model.listEtag === undefined && etag !== null) model.learnListEtag(etag);
}
