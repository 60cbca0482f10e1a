import type { IRequest, RouterType } from 'itty-router';
import type { AppConfig } from '../config.ts';
import { preflightHeaders } from '../http/cors.ts';
import { etagOf, ifMatchAllows, isNotModified } from '../http/etag.ts';
import { readJsonObject, readOptionalJsonObject, requireJsonMediaType } from '../http/json-body.ts';
import { HttpProblem } from '../http/problem.ts';
import type { Responses } from '../http/responses.ts';
import { methodNotAllowed } from '../http/routing.ts';
import type { StoredListInfo } from '../todos/store.ts';
import { noSuchList, stillThere } from './list-bases.ts';
import type { ListDirectory } from './list-directory.ts';
import { listPageOf, LISTS_PATH, listPathOf } from './list-paths.ts';
import type { TodoList } from './todo-list.ts';
import { parseListTitle } from './validate.ts';

const LIST = `${LISTS_PATH}/:list`;
const CREATE = { kind: 'create' } as const;

export interface ListRouteDeps {
  readonly lists: ListDirectory;
  readonly limits: AppConfig['limits'];
  readonly responses: Responses;
  readonly contentLengthIsExact: boolean;
}

/**
 * Named lists (docs/api.md, Lists): `POST /api/lists` makes one, and `/api/lists/{id}` reads,
 * renames and deletes it. There is no way to list them: knowing an id is what gives access.
 */
export function addListRoutes(router: RouterType, deps: ListRouteDeps): void {
  const { lists, limits, responses, contentLengthIsExact } = deps;
  const collectionPreflight = preflightHeaders('POST, OPTIONS');
  const listPreflight = preflightHeaders('GET, PUT, DELETE, OPTIONS');

  // The page of the list rides along with its answer, so a client that made a list with curl
  // has the link to share at once.
  const listResponse = (status: number, stored: StoredListInfo, headers?: Record<string, string>) =>
    responses.apiJson(status, JSON.stringify(stored.info), {
      etag: etagOf(stored.version),
      link: `<${listPageOf(stored.info.id)}>; rel="alternate"; type="text/html"`,
      ...headers,
    });

  const named = (request: IRequest): TodoList => lists.find(request.params.list!) ?? throwNoList();

  const requireIfMatch = (request: IRequest, list: TodoList): void => {
    if (!ifMatchAllows(request.headers.get('if-match'), etagOf(list.store.info.version))) {
      throw new HttpProblem(
        412,
        'The list has changed since the version named in If-Match; fetch it again and retry.',
      );
    }
  };

  const createList = async (request: IRequest) => {
    const body = await readOptionalJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    const title = body === undefined ? '' : parseListTitle(body, CREATE, limits.maxTitleLength);
    const created = await lists.create(title);
    return listResponse(201, created, { location: listPathOf(created.info.id) });
  };

  const readList = (request: IRequest) => {
    const { info } = named(request).store;
    const etag = etagOf(info.version);
    if (isNotModified(request.headers.get('if-none-match'), etag)) {
      return responses.apiEmpty(304, { etag });
    }
    return listResponse(200, info);
  };

  const renameList = async (request: IRequest) => {
    const list = named(request);
    requireJsonMediaType(request);
    requireIfMatch(request, list);
    const body = await readJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    const title = parseListTitle(body, { kind: 'replace', id: list.id }, limits.maxTitleLength);
    // The body arrived asynchronously: the list may have changed or gone meanwhile.
    requireIfMatch(request, stillThere(list));
    return listResponse(200, list.store.rename(title));
  };

  const deleteList = async (request: IRequest) => {
    const list = named(request);
    requireIfMatch(request, list);
    await lists.delete(list);
    return responses.apiEmpty(204);
  };

  router
    .post(LISTS_PATH, createList)
    .options(LISTS_PATH, () => responses.apiEmpty(204, collectionPreflight))
    .all(LISTS_PATH, methodNotAllowed('POST, OPTIONS'))
    .get(LIST, readList)
    .head(LIST, readList)
    .put(LIST, renameList)
    .delete(LIST, deleteList)
    .options(LIST, () => responses.apiEmpty(204, listPreflight))
    .all(LIST, methodNotAllowed('GET, HEAD, PUT, DELETE, OPTIONS'));
}

function throwNoList(): never {
  throw noSuchList();
}
