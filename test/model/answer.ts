import { expect } from 'vitest';
import { UUID, type TodoJson } from '../support/api.ts';
import { listAnswerComparison } from './list-answer.ts';
import type { ListsModel } from './lists-model.ts';
import { knownOrNew, newVersion } from './etags.ts';
import type { TodoModel } from './model.ts';
import { statusOf, type Expected } from './predict.ts';
import { pathsOf, type WireRequest } from './wire.ts';

/** A response read whole, so that it can be checked, learnt from and printed. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** An event stream where none was due is not read: it would not end. */
export async function readAnswer(response: Response): Promise<Answer> {
  const { status, headers } = response;
  if (headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status, headers, text: '(an event stream)' };
  }
  return { status, headers, text: await response.text() };
}

/** One side of a comparison: what came, and what the model wants. */
export type Comparison = [actual: object, wanted: object];

const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

/**
 * Whether the answer is the one the model expects: status, the item, list or list's title, the
 * problem's status and field pointers, Location and ETag. Compared as one object, so a failure
 * shows everything that differs at once.
 */
export function expectAnswer(
  lists: ListsModel,
  request: WireRequest,
  expected: Expected,
  answer: Answer,
): void {
  const [actual, wanted] = comparison(lists, request, expected, answer);
  expect(actual, `${request.method} ${request.path}`).toEqual(wanted);
}

function comparison(
  lists: ListsModel,
  request: WireRequest,
  expected: Expected,
  answer: Answer,
): Comparison {
  const status = answer.status;
  const etag = answer.headers.get('etag');
  // Only an answer about a list that is there has an ETag, of that list's versions.
  const model = lists.find(request.listId ?? '')?.items;
  if (request.method === 'HEAD' || expected.kind === 'not-modified') {
    const etagWanted = 'etag' in expected ? knownOrNew(model!, expected.etag) : undefined;
    return [
      { status, body: answer.text, etag: etagWanted && etag },
      { status: statusOf(expected), body: '', etag: etagWanted },
    ];
  }
  const body = parsed(answer.text);
  switch (expected.kind) {
    case 'problem': {
      const { pointers, allow } = expected;
      return [
        {
          status,
          type: answer.headers.get('content-type'),
          problemStatus: (body as { status?: unknown } | undefined)?.status,
          ...(pointers && { pointers: pointersOf(body) }),
          ...(allow && { allow: answer.headers.get('allow') }),
        },
        {
          status: expected.status,
          type: PROBLEM_TYPE,
          problemStatus: expected.status,
          ...(pointers && { pointers }),
          ...(allow && { allow }),
        },
      ];
    }
    case 'created': {
      const id = (body as Partial<TodoJson> | undefined)?.id;
      return [
        { status, body, location: answer.headers.get('location'), etag },
        {
          status: 201,
          body: { id: newId(model!), title: expected.title, completed: expected.completed },
          location: `${pathsOf(request.listId!).todos}/${id}`,
          etag: newVersion(model!),
        },
      ];
    }
    case 'replaced':
      return [
        { status, body, etag },
        { status: 200, body: expected.todo, etag: newVersion(model!) },
      ];
    case 'deleted':
      return [
        { status, body },
        { status: 200, body: expected.todo },
      ];
    case 'item':
      return [
        { status, body, etag },
        { status: 200, body: expected.todo, etag: knownOrNew(model!, expected.etag) },
      ];
    case 'list':
      return [
        { status, body, etag },
        { status: 200, body: expected.todos, etag: knownOrNew(model!, expected.etag) },
      ];
    default:
      return listAnswerComparison(lists, model, expected, answer, body);
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function pointersOf(problem: unknown): string[] | undefined {
  const errors = (problem as { errors?: { pointer: string }[] } | undefined)?.errors;
  return errors?.map((error) => error.pointer).sort();
}

/** A lowercase version 4 UUID that has named no item of the list before. */
function newId(model: TodoModel) {
  const issued = new Set([...model.items.map((todo) => todo.id), ...model.deleted]);
  return expect.toSatisfy(
    (id: unknown) => typeof id === 'string' && UUID.test(id) && !issued.has(id),
    'a lowercase UUID v4 never issued before',
  );
}
