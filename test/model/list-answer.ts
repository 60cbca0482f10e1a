import { expect } from 'vitest';
import { listPathOf } from '../../src/model/resources.ts';
import type { ListJson } from '../support/lists.ts';
import type { Answer, Comparison } from './answer.ts';
import { anyEtag, knownOrNew, newVersion } from './etags.ts';
import type { ListsModel } from './lists-model.ts';
import type { TodoModel } from './model.ts';
import type { Expected } from './predict.ts';

/** The answers only list commands get; `model` is the items of the list addressed. */
export function listAnswerComparison(
  lists: ListsModel,
  model: TodoModel | undefined,
  expected: Expected,
  answer: Answer,
  body: unknown,
): Comparison {
  const { status } = answer;
  const etag = answer.headers.get('etag');
  switch (expected.kind) {
    case 'list-created': {
      const id = (body as Partial<ListJson> | undefined)?.id;
      return [
        { status, body, location: answer.headers.get('location'), etag },
        {
          status: 201,
          body: { id: newListId(lists), title: expected.title, viewId: newListId(lists) },
          location: listPathOf(String(id)),
          etag: anyEtag(),
        },
      ];
    }
    case 'list-read':
      return [
        { status, body, etag },
        { status: 200, body: expected.list, etag: knownOrNew(model!, expected.etag) },
      ];
    case 'list-renamed':
      return [
        { status, body, etag },
        { status: 200, body: expected.list, etag: newVersion(model!) },
      ];
    case 'list-deleted':
      return [
        { status, body: answer.text },
        { status: 204, body: '' },
      ];
    default:
      throw new Error(`no answer is read for ${expected.kind}`);
  }
}

/** base64url, and no list's id before. */
function newListId(lists: ListsModel) {
  const issued = lists.issuedIds();
  return expect.toSatisfy(
    (id: unknown) => typeof id === 'string' && /^[A-Za-z0-9_-]+$/.test(id) && !issued.has(id),
    'a base64url id no list had before',
  );
}
