import { expect } from 'vitest';
import { UUID, type TodoJson } from '../support/api.ts';
import type { TodoModel } from './model.ts';
import { statusOf, type Expected } from './predict.ts';
import type { WireRequest } from './wire.ts';

/** A response read whole, so that it can be checked, learnt from and printed. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export async function readAnswer(response: Response): Promise<Answer> {
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const QUOTED = /^"[^"]*"$/;

/**
 * Whether the answer is the one the model expects: status, the item or list, the problem's
 * status and field pointers, Location and ETag. Compared as one object, so a failure shows
 * everything that differs at once.
 */
export function expectAnswer(
  model: TodoModel,
  request: WireRequest,
  expected: Expected,
  answer: Answer,
): void {
  const [actual, wanted] = comparison(model, request, expected, answer);
  expect(actual, `${request.method} ${request.path}`).toEqual(wanted);
}

function comparison(
  model: TodoModel,
  request: WireRequest,
  expected: Expected,
  answer: Answer,
): [actual: object, wanted: object] {
  const status = answer.status;
  const etag = answer.headers.get('etag');
  if (request.method === 'HEAD' || expected.kind === 'not-modified') {
    const etagWanted = 'etag' in expected ? knownOrNew(model, expected.etag) : undefined;
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
          body: { id: newId(model), title: expected.title, completed: expected.completed },
          location: `/api/todos/${id}`,
          etag: newVersion(model),
        },
      ];
    }
    case 'replaced':
      return [
        { status, body, etag },
        { status: 200, body: expected.todo, etag: newVersion(model) },
      ];
    case 'deleted':
      return [
        { status, body },
        { status: 200, body: expected.todo },
      ];
    case 'item':
      return [
        { status, body, etag },
        { status: 200, body: expected.todo, etag: knownOrNew(model, expected.etag) },
      ];
    case 'list':
      return [
        { status, body, etag },
        { status: 200, body: expected.todos, etag: knownOrNew(model, expected.etag) },
      ];
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

/** A lowercase version 4 UUID that has named no item before. */
function newId(model: TodoModel) {
  const issued = new Set([...model.items.map((todo) => todo.id), ...model.deleted]);
  return expect.toSatisfy(
    (id: unknown) => typeof id === 'string' && UUID.test(id) && !issued.has(id),
    'a lowercase UUID v4 never issued before',
  );
}

/** Every change makes a version of its own (README, Layout), which is the changed item's ETag. */
export function newVersion(model: TodoModel) {
  return expect.toSatisfy(
    (etag: unknown) => typeof etag === 'string' && QUOTED.test(etag) && !model.versions.has(etag),
    'a quoted ETag never shown before',
  );
}

/** The ETag the model knows; where it cannot (the list after a delete), a new one. */
function knownOrNew(model: TodoModel, etag: string | undefined) {
  return etag ?? newVersion(model);
}
