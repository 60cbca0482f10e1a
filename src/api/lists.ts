import type { IRequest } from 'itty-router';
import { admitCreation } from '../http/client-limits.ts';
import { readJsonObject, readOptionalJsonObject, requireJsonMediaType } from '../http/body.ts';
import { methodNotAllowed } from '../http/problem.ts';
import { etagOf, idempotencyKeyOf, isNotModified, requireIfMatch } from '../http/request.ts';
import { preflight, type Responses } from '../http/responses.ts';
import type { Routes } from '../http/router.ts';
import type { LiveList } from '../lists/live-list.ts';
import { listJsonOf, listPageOf, LISTS_PATH, listPathOf } from '../model/resources.ts';
import type { StoredList } from '../store/changes.ts';
import { listTitleOf } from './fields.ts';
import { answersOn, namedListReach, type ListRouteDeps } from './items.ts';

const LIST = `${LISTS_PATH}/:list`;

/** Named lists (docs/api.md, Lists): nothing lists them, as knowing an id gives access. */
export function addListRoutes(router: Routes, deps: ListRouteDeps) {
  const { lists, viewIds, limits, contentLengthIsExact, clientAddressOf, listCreations } = deps;

  // The list's page rides along, so a client that made a list with curl has the link to share.
  const headersOf = ({ version }: StoredList, pageId: string): Record<string, string> => ({
    etag: etagOf(version),
    link: `<${listPageOf(pageId)}>; rel="alternate"; type="text/html"`,
  });

  // Checked on the list with its pending changes: a rename not yet committed is in it.
  const requireCurrent = (request: IRequest, list: LiveList): void =>
    requireIfMatch(request, etagOf(list.store.withPending.listVersion), 'list');

  const createList = async (request: IRequest, responses: Responses) => {
    const key = idempotencyKeyOf(request);
    const body = await readOptionalJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    const title = body === undefined ? '' : listTitleOf(body, limits.maxTitleLength);
    // Counted only when a list is about to be made: a retry of one made already is not.
    let rateLimit = {};
    const created = await lists.create(title, key, async () => {
      rateLimit = await admitCreation(listCreations, clientAddressOf(request));
    });
    const { id } = created.info;
    const json = listJsonOf(created.info, await viewIds.viewIdOf(id), false);
    // Lists are made seldom: their headers may be spread.
    const headers = { ...headersOf(created, id), location: listPathOf(id), ...rateLimit };
    return responses.apiJson(201, json, headers);
  };

  const { on, change } = answersOn(namedListReach(deps));

  const readList = on(async (list, request, responses, viewOnly) => {
    const { resource } = list.store;
    const etag = etagOf(resource.version);
    if (isNotModified(request, etag)) return responses.apiEmpty(304, { etag });
    const viewId = (await list.viewId())!;
    const json = list.jsonOf(resource.info, viewOnly);
    return responses.apiJson(200, json, headersOf(resource, viewOnly ? viewId : list.id));
  });

  const renameList = change(async (list, request, responses) => {
    requireJsonMediaType(request);
    requireCurrent(request, list);
    const body = await readJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    const title = listTitleOf(body, limits.maxTitleLength, list.id);
    // The body arrived asynchronously: the list may have changed or gone meanwhile.
    requireCurrent(request, list.stillThere());
    const renamed = await list.store.rename(title);
    await list.viewId();
    return responses.apiJson(200, list.jsonOf(renamed.info, false), headersOf(renamed, list.id));
  });

  const deleteList = change(async (list, request, responses) => {
    // Its streams are told with the list's JSON, view id and all; read before the check.
    await list.viewId();
    requireCurrent(request, list.stillThere());
    await lists.delete(list);
    return responses.apiEmpty(204);
  });

  router
    .post(LISTS_PATH, createList)
    .options(LISTS_PATH, preflight('POST, OPTIONS'))
    .all(LISTS_PATH, methodNotAllowed('POST, OPTIONS'))
    .get(LIST, readList)
    .head(LIST, readList)
    .put(LIST, renameList)
    .delete(LIST, deleteList)
    .options(LIST, preflight('GET, PUT, DELETE, OPTIONS'))
    .all(LIST, methodNotAllowed('GET, HEAD, PUT, DELETE, OPTIONS'));
}
