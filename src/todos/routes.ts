import type { IRequest, RouterType } from 'itty-router';
import type { AppConfig } from '../config.ts';
import { preflightHeaders } from '../http/cors.ts';
import { etagOf, ifMatchAllows, isNotModified } from '../http/etag.ts';
import { readJsonObject, requireJsonMediaType } from '../http/json-body.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/routing.ts';
import type { StoredTodo, TodoStore } from './store.ts';
import { parseTodoFields, type BodyIntent } from './validate.ts';

const COLLECTION = '/api/todos';
const ITEM = '/api/todos/:id';
const CREATE: BodyIntent = { kind: 'create' };
const utf8 = new TextEncoder();

/** What an answer about one item carries: its ETag and its JSON. */
interface ItemAnswer {
  readonly etag: string;
  readonly json: string;
}

export interface TodoRouteDeps {
  readonly store: TodoStore;
  readonly limits: AppConfig['limits'];
  readonly responses: Responses;
  readonly contentLengthIsExact: boolean;
}

/** The to-do API: docs/api.md, sections Items, Request bodies and Conditional requests. */
export function addTodoRoutes(router: RouterType, deps: TodoRouteDeps) {
  const { store, limits, responses, contentLengthIsExact } = deps;
  // The list's ETag is the store's version, so its JSON only needs making, and encoding, once
  // per change: a host can send the bytes as they are, where a string is measured and encoded
  // again for every answer.
  let listCache: { version: string; body: Uint8Array } = { version: '', body: new Uint8Array(0) };
  const collectionPreflight = preflightHeaders('GET, POST, OPTIONS');
  const itemPreflight = preflightHeaders('PUT, DELETE, OPTIONS');

  const answerOf = (stored: StoredTodo): ItemAnswer => ({
    etag: etagOf(stored.version),
    json: JSON.stringify(stored.todo),
  });
  // A read's answer changes only with the item's version, and every version is a new
  // StoredTodo: its ETag and JSON are made on the first read, not on every one. Changes make
  // their answer once anyway, so only items that are read take the memory.
  const readAnswers = new WeakMap<StoredTodo, ItemAnswer>();
  const readAnswerOf = (stored: StoredTodo): ItemAnswer => {
    let answer = readAnswers.get(stored);
    if (answer === undefined) readAnswers.set(stored, (answer = answerOf(stored)));
    return answer;
  };

  const itemResponse = (status: number, answer: ItemAnswer, headers?: Record<string, string>) =>
    responses.apiJson(status, answer.json, { etag: answer.etag, ...headers });

  const found = (stored: StoredTodo | undefined): StoredTodo => {
    if (stored === undefined) throw new HttpProblem(404, 'No to-do has this id.');
    return stored;
  };

  const requireIfMatch = (request: IRequest, stored: StoredTodo): void => {
    if (!ifMatchAllows(request.headers.get('if-match'), etagOf(stored.version))) {
      throw new HttpProblem(
        412,
        'The to-do has changed since the version named in If-Match; fetch it again and retry.',
      );
    }
  };

  const readFields = async (request: IRequest, intent: BodyIntent) => {
    const body = await readJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    const parsed = parseTodoFields(body, intent, limits.maxTitleLength);
    if (!parsed.ok) {
      const detail = parsed.errors.map((error) => error.detail).join(' ');
      throw new HttpProblem(400, detail, { errors: parsed.errors });
    }
    return parsed.fields;
  };

  const listTodos = (request: IRequest) => {
    const etag = etagOf(store.version);
    if (isNotModified(request.headers.get('if-none-match'), etag)) {
      return responses.apiEmpty(304, { etag });
    }
    if (listCache.version !== store.version) {
      listCache = { version: store.version, body: utf8.encode(JSON.stringify(store.list())) };
    }
    return responses.apiJson(200, listCache.body, { etag });
  };

  const createTodo = async (request: IRequest) => {
    requireJsonMediaType(request);
    const fields = await readFields(request, CREATE);
    if (store.size >= limits.maxItems) {
      throw new HttpProblem(
        507,
        `The list is full: it holds the most items allowed, ${limits.maxItems}. Delete some first.`,
      );
    }
    const created = store.create(fields);
    return itemResponse(201, answerOf(created), { location: `${COLLECTION}/${created.todo.id}` });
  };

  const getTodo = (request: IRequest) => {
    const stored = found(store.get(request.params.id!));
    const answer = readAnswerOf(stored);
    if (isNotModified(request.headers.get('if-none-match'), answer.etag)) {
      return responses.apiEmpty(304, { etag: answer.etag });
    }
    return itemResponse(200, answer);
  };

  const replaceTodo = async (request: IRequest) => {
    const id = request.params.id!;
    const current = found(store.get(id));
    requireJsonMediaType(request);
    requireIfMatch(request, current);
    const fields = await readFields(request, { kind: 'replace', id });
    // The body arrived asynchronously: the item may have changed or gone meanwhile.
    requireIfMatch(request, found(store.get(id)));
    return itemResponse(200, answerOf(found(store.replace(id, fields))));
  };

  const deleteTodo = (request: IRequest) => {
    const id = request.params.id!;
    requireIfMatch(request, found(store.get(id)));
    return itemResponse(200, answerOf(found(store.delete(id))));
  };

  router
    .get(COLLECTION, listTodos)
    .head(COLLECTION, listTodos)
    .post(COLLECTION, createTodo)
    .options(COLLECTION, () => responses.apiEmpty(204, collectionPreflight))
    .all(COLLECTION, methodNotAllowed('GET, HEAD, POST, OPTIONS'))
    .get(ITEM, getTodo)
    .head(ITEM, getTodo)
    .put(ITEM, replaceTodo)
    .delete(ITEM, deleteTodo)
    .options(ITEM, () => responses.apiEmpty(204, itemPreflight))
    .all(ITEM, methodNotAllowed('GET, HEAD, PUT, DELETE, OPTIONS'));
}
