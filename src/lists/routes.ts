import type { IRequest } from 'itty-router';
import type { Routes } from '../handler.ts';
import type { AppConfig } from '../config.ts';
import { preflightHeaders } from '../http/cors.ts';
import { etagOf, isNotModified, requireIfMatch } from '../http/etag.ts';
import { readJsonObject, readOptionalJsonObject, requireJsonMediaType } from '../http/json-body.ts';
import { idempotencyKeyOf } from '../http/idempotency-key.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/method-not-allowed.ts';
import { judgedOnLatest } from '../todos/judged.ts';
import type { StoredList } from '../todos/store.ts';
import { namedListOf, stillThere } from './list-bases.ts';
import type { ListDirectory } from './list-directory.ts';
import { listPageOf, LISTS_PATH, listPathOf } from './list-paths.ts';
import type { TodoList } from './todo-list.ts';
import { parseListTitle } from './validate.ts';

const LIST = `${LISTS_PATH}/:list`;
const CREATE = { kind: 'create' } as const;

export interface ListRouteDeps {
  readonly lists: ListDirectory;
  readonly limits: AppConfig['limits'];
  readonly contentLengthIsExact: boolean;
}

/**
 * Named lists (docs/api.md, Lists): `POST /api/lists` makes one, and `/api/lists/{id}` reads,
 * renames and deletes it. There is no way to list them: knowing an id is what gives access.
 */
export function addListRoutes(router: Routes, deps: ListRouteDeps): void {
  const { lists, limits, contentLengthIsExact } = deps;
  const collectionPreflight = preflightHeaders('POST, OPTIONS');
  const listPreflight = preflightHeaders('GET, PUT, DELETE, OPTIONS');
  const named = namedListOf(lists);

  // The page of the list rides along with its answer, so a client that made a list with curl
  // has the link to share at once.
  const listResponse = (
    responses: Responses,
    status: number,
    stored: StoredList,
    headers?: Record<string, string>,
  ) =>
    responses.apiJson(status, JSON.stringify(stored.list), {
      etag: etagOf(stored.version),
      link: `<${listPageOf(stored.list.id)}>; rel="alternate"; type="text/html"`,
      ...headers,
    });

  // Checked against the latest list, a rename not yet durable in it.
  const requireCurrent = (request: IRequest, list: TodoList): void =>
    requireIfMatch(request, etagOf(list.store.latest.listVersion), 'list');

  const createList = async (request: IRequest, responses: Responses) => {
    const key = idempotencyKeyOf(request);
    const body = await readOptionalJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    const title = body === undefined ? '' : parseListTitle(body, CREATE, limits.maxTitleLength);
    const created = await lists.create(title, key);
    return listResponse(responses, 201, created, { location: listPathOf(created.list.id) });
  };

  const readList = (request: IRequest, responses: Responses) => {
    const { store } = named(request);
    const etag = etagOf(store.listVersion);
    if (isNotModified(request.headers.get('if-none-match'), etag)) {
      return responses.apiEmpty(304, { etag });
    }
    return listResponse(responses, 200, { list: store.listInfo, version: store.listVersion });
  };

  const renameList = (request: IRequest, responses: Responses) => {
    const list = named(request);
    return judgedOnLatest(list.store, async () => {
      requireJsonMediaType(request);
      requireCurrent(request, list);
      const body = await readJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
      const title = parseListTitle(body, { kind: 'replace', id: list.id }, limits.maxTitleLength);
      // The body arrived asynchronously: the list may have changed or gone meanwhile.
      requireCurrent(request, stillThere(list));
      return listResponse(responses, 200, await list.store.rename(title));
    });
  };

  const deleteList = (request: IRequest, responses: Responses) => {
    const list = named(request);
    return judgedOnLatest(list.store, async () => {
      requireCurrent(request, list);
      await lists.delete(list);
      return responses.apiEmpty(204);
    });
  };

  router
    .post(LISTS_PATH, createList)
    .options(LISTS_PATH, (_request, responses) => responses.apiEmpty(204, collectionPreflight))
    .all(LISTS_PATH, methodNotAllowed('POST, OPTIONS'))
    .get(LIST, readList)
    .head(LIST, readList)
    .put(LIST, renameList)
    .delete(LIST, deleteList)
    .options(LIST, (_request, responses) => responses.apiEmpty(204, listPreflight))
    .all(LIST, methodNotAllowed('GET, HEAD, PUT, DELETE, OPTIONS'));
}
