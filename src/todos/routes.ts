import type { IRequest } from 'itty-router';
import type { Routes } from '../handler.ts';
import type { AppConfig } from '../config.ts';
import { preflightHeaders } from '../http/cors.ts';
import { etagOf, isNotModified, requireIfMatch } from '../http/etag.ts';
import { readJsonObject, requireJsonMediaType } from '../http/json-body.ts';
import { idempotencyKeyOf } from '../http/idempotency-key.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';
import { stillThere, type ListBase, type ListOf } from '../lists/list-bases.ts';
import type { ListPaths } from '../lists/list-paths.ts';
import { answerOf, type ItemAnswer, type TodoList } from '../lists/todo-list.ts';
import { judgedOnLatest } from './judged.ts';
import { itemToReplay } from './keyed-creates.ts';
import type { StoredTodo } from './store.ts';
import { parseTodoFields, type BodyIntent } from './validate.ts';

const CREATE: BodyIntent = { kind: 'create' };

export interface TodoRouteDeps {
  readonly bases: readonly ListBase[];
  readonly limits: AppConfig['limits'];
  readonly contentLengthIsExact: boolean;
}

/**
 * The items of a list, under `/api/todos` for the default list and `/api/lists/{id}/todos` for
 * a named one, by the same rules: docs/api.md, sections Items, Request bodies and Conditional
 * requests.
 */
export function addTodoRoutes(router: Routes, deps: TodoRouteDeps) {
  const { limits, contentLengthIsExact } = deps;
  const collectionPreflight = preflightHeaders('GET, POST, OPTIONS');
  const itemPreflight = preflightHeaders('PUT, DELETE, OPTIONS');

  const itemResponse = (
    responses: Responses,
    status: number,
    answer: ItemAnswer,
    headers?: Record<string, string>,
  ) => responses.apiJson(status, answer.json, { etag: answer.etag, ...headers });

  // A retry with the same Idempotency-Key gets this again, from the change that made the item.
  const createdResponse = (responses: Responses, created: StoredTodo, paths: ListPaths) =>
    itemResponse(responses, 201, answerOf(created), {
      location: `${paths.todos}/${created.todo.id}`,
    });

  const found = (stored: StoredTodo | undefined): StoredTodo => {
    if (stored === undefined) throw new HttpProblem(404, 'No to-do has this id.');
    return stored;
  };

  const requireCurrent = (request: IRequest, stored: StoredTodo): void =>
    requireIfMatch(request, etagOf(stored.version), 'to-do');

  const readFields = async (request: IRequest, intent: BodyIntent) => {
    const body = await readJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    const parsed = parseTodoFields(body, intent, limits.maxTitleLength);
    if (!parsed.ok) {
      const detail = parsed.errors.map((error) => error.detail).join(' ');
      throw new HttpProblem(400, detail, { errors: parsed.errors });
    }
    return parsed.fields;
  };

  const listTodos = (list: TodoList, request: IRequest, responses: Responses) => {
    const etag = etagOf(list.store.version);
    if (isNotModified(request.headers.get('if-none-match'), etag)) {
      return responses.apiEmpty(304, { etag });
    }
    return responses.apiJson(200, list.listBody(), { etag });
  };

  const createTodo = async (list: TodoList, request: IRequest, responses: Responses) => {
    const key = idempotencyKeyOf(request);
    requireJsonMediaType(request);
    const fields = await readFields(request, CREATE);
    const { store, paths } = stillThere(list);
    const earlier = key === undefined ? undefined : store.createdWith(key);
    if (earlier !== undefined) {
      return createdResponse(responses, itemToReplay(earlier, fields), paths);
    }
    if (store.latest.size >= limits.maxItems) {
      throw new HttpProblem(
        507,
        `The list is full: it holds the most items allowed, ${limits.maxItems}. Delete some first.`,
      );
    }
    return createdResponse(responses, await store.create(fields, key), paths);
  };

  const getTodo = (list: TodoList, request: IRequest, responses: Responses) => {
    const answer = list.readAnswerOf(found(list.store.get(request.params.id!)));
    if (isNotModified(request.headers.get('if-none-match'), answer.etag)) {
      return responses.apiEmpty(304, { etag: answer.etag });
    }
    return itemResponse(responses, 200, answer);
  };

  const replaceTodo = async (list: TodoList, request: IRequest, responses: Responses) => {
    const id = request.params.id!;
    const current = found(list.store.latest.get(id));
    requireJsonMediaType(request);
    requireCurrent(request, current);
    const fields = await readFields(request, { kind: 'replace', id });
    // The body arrived asynchronously: the list or the item may have changed or gone meanwhile.
    const { store } = stillThere(list);
    requireCurrent(request, found(store.latest.get(id)));
    return itemResponse(responses, 200, answerOf(found(await store.replace(id, fields))));
  };

  const deleteTodo = async (list: TodoList, request: IRequest, responses: Responses) => {
    const id = request.params.id!;
    requireCurrent(request, found(list.store.latest.get(id)));
    return itemResponse(responses, 200, answerOf(found(await list.store.delete(id))));
  };

  type Answer<T> = (list: TodoList, request: IRequest, responses: Responses) => T;

  const on =
    (listOf: ListOf, answer: Answer<Response | Promise<Response>>) =>
    (request: IRequest, responses: Responses) =>
      answer(listOf(request), request, responses);

  // A change's conditions are checked against the latest list, changes not yet durable in it.
  const change =
    (listOf: ListOf, answer: Answer<Promise<Response>>) =>
    (request: IRequest, responses: Responses) => {
      const list = listOf(request);
      return judgedOnLatest(list.store, () => answer(list, request, responses));
    };

  for (const { prefix, listOf } of deps.bases) {
    const collection = `${prefix}/todos`;
    const item = `${collection}/:id`;
    router
      .get(collection, on(listOf, listTodos))
      .head(collection, on(listOf, listTodos))
      .post(collection, change(listOf, createTodo))
      .options(collection, (_request, responses) => responses.apiEmpty(204, collectionPreflight))
      .all(collection, methodNotAllowed('GET, HEAD, POST, OPTIONS'))
      .get(item, on(listOf, getTodo))
      .head(item, on(listOf, getTodo))
      .put(item, change(listOf, replaceTodo))
      .delete(item, change(listOf, deleteTodo))
      .options(item, (_request, responses) => responses.apiEmpty(204, itemPreflight))
      .all(item, methodNotAllowed('GET, HEAD, PUT, DELETE, OPTIONS'));
  }
}
