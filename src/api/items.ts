import type { IRequest } from 'itty-router';
import type { AppConfig } from '../config.ts';
import type { OpenStreamsPerClient, RateLimiter } from '../http/client-limits.ts';
import { readJsonObject, requireJsonMediaType } from '../http/body.ts';
import { HttpProblem, methodNotAllowed } from '../http/problem.ts';
import { etagOf, idempotencyKeyOf, isNotModified, requireIfMatch } from '../http/request.ts';
import { preflight, type Responses } from '../http/responses.ts';
import type { Routes } from '../http/router.ts';
import type { ViewIds } from '../lists/list-id.ts';
import { noSuchList, reachNamedList, refuseViewOnly } from '../lists/live-list.ts';
import type { ListDirectory, ListRoute, LiveList } from '../lists/live-list.ts';
import { LISTS_PATH } from '../model/resources.ts';
import type { StoredTodo } from '../store/changes.ts';
import { itemToReplay } from '../store/idempotency.ts';
import { todoFieldsOf } from './fields.ts';

export interface ListRouteDeps {
  readonly lists: ListDirectory;
  readonly viewIds: ViewIds;
  readonly limits: AppConfig['limits'];
  readonly contentLengthIsExact: boolean;
  readonly clientAddressOf: (request: Request) => string | undefined;
  readonly listCreations: RateLimiter;
  readonly streamsPerClient: OpenStreamsPerClient;
}

type Reach = (request: IRequest, route: ListRoute) => Response | Promise<Response>;

type Answer = (
  list: LiveList,
  request: IRequest,
  responses: Responses,
  viewOnly: boolean,
) => Response | Promise<Response>;

/** The refusals that depend on what a list holds: no such item, a stale If-Match, no room. */
const REFUSALS_ON_CONTENT = new Set([404, 412, 507]);

/** The items and event stream of the default list and of named ones, alike (docs/api.md). */
export function addItemRoutes(router: Routes, deps: ListRouteDeps) {
  const { lists, limits, contentLengthIsExact, clientAddressOf, streamsPerClient } = deps;
  const reply = (responses: Responses, status: number, stored: StoredTodo, location?: string) => {
    const etag = etagOf(stored.version);
    const headers: Record<string, string> = location === undefined ? { etag } : { etag, location };
    return responses.apiJson(status, stored.json, headers);
  };
  const found = (stored: StoredTodo | undefined) =>
    stored ?? raise(new HttpProblem(404, 'No to-do has this id.'));
  const requireCurrent = (request: IRequest, stored: StoredTodo) =>
    requireIfMatch(request, etagOf(stored.version), 'to-do');
  const readFields = async (request: IRequest, pathId?: string) => {
    const body = await readJsonObject(request, limits.maxBodyBytes, contentLengthIsExact);
    return todoFieldsOf(body, limits.maxTitleLength, pathId);
  };

  const listTodos: Answer = (list, request, responses) => {
    const etag = etagOf(list.store.version);
    if (isNotModified(request, etag)) return responses.apiEmpty(304, { etag });
    return responses.apiJson(200, list.itemsJson(), { etag });
  };

  const getTodo: Answer = ({ store }, request, responses) => {
    const stored = found(store.get(request.params.id!));
    const etag = etagOf(stored.version);
    if (isNotModified(request, etag)) return responses.apiEmpty(304, { etag });
    return responses.apiJson(200, stored.json, { etag });
  };

  const createTodo: Answer = async (list, request, responses) => {
    const key = idempotencyKeyOf(request);
    requireJsonMediaType(request);
    const fields = await readFields(request);
    const { store, paths } = list.stillThere();
    const earlier = key === undefined ? undefined : store.createdWith(key);
    if (earlier === undefined && store.withPending.size >= limits.maxItems) {
      throw new HttpProblem(
        507,
        `The list is full: it holds the most items allowed, ${limits.maxItems}. Delete some first.`,
      );
    }
    const created = earlier
      ? itemToReplay(earlier.item, earlier.committed, fields)
      : await store.create(fields, key);
    return reply(responses, 201, created, `${paths.todos}/${created.todo.id}`);
  };

  const replaceTodo: Answer = async (list, request, responses) => {
    const id = request.params.id!;
    const current = found(list.store.withPending.get(id));
    requireJsonMediaType(request);
    requireCurrent(request, current);
    const fields = await readFields(request, id);
    // The body arrived asynchronously: the list or the item may have changed or gone meanwhile.
    const { store } = list.stillThere();
    const now = found(store.withPending.get(id));
    requireCurrent(request, now);
    return reply(responses, 200, await store.replace(now, fields));
  };

  const deleteTodo: Answer = async ({ store }, request, responses) => {
    const current = found(store.withPending.get(request.params.id!));
    requireCurrent(request, current);
    return reply(responses, 200, await store.delete(current));
  };

  // The client's own limit first, as on workerd, where the worker counts before it asks the
  // list's object; its place is freed however the stream ends.
  const openStream = (reach: Reach) => async (request: IRequest, responses: Responses) => {
    const free = streamsPerClient.take(clientAddressOf(request));
    try {
      return await reach(request, async (list, viewOnly) => {
        // A stream shows the list's JSON, the view id in it, on a rename or the list's deletion.
        await list.viewId();
        return responses.eventStream(list.events.open(request, viewOnly, free));
      });
    } catch (error) {
      free();
      throw error;
    }
  };

  const defaultListReach: Reach = (_request, route) =>
    route(lists.defaultList ?? raise(noSuchList()), false);
  for (const [prefix, reach] of [
    ['/api', defaultListReach],
    [`${LISTS_PATH}/:list`, namedListReach(deps)],
  ] as const) {
    const { on, change } = answersOn(reach);
    const collection = `${prefix}/todos`;
    const one = `${collection}/:id`;
    const stream = `${prefix}/sse`;
    router
      .get(collection, on(listTodos))
      .head(collection, on(listTodos))
      .post(collection, change(createTodo))
      .options(collection, preflight('GET, POST, OPTIONS'))
      .all(collection, methodNotAllowed('GET, HEAD, POST, OPTIONS'))
      .get(one, on(getTodo))
      .head(one, on(getTodo))
      .put(one, change(replaceTodo))
      .delete(one, change(deleteTodo))
      .options(one, preflight('PUT, DELETE, OPTIONS'))
      .all(one, methodNotAllowed('GET, HEAD, PUT, DELETE, OPTIONS'))
      .get(stream, openStream(reach))
      .options(stream, preflight('GET, OPTIONS', 'Last-Event-ID'))
      .all(stream, methodNotAllowed('GET, OPTIONS'));
  }
}

/** Runs a route on the named list a request's path names, by its edit id or its view id. */
export function namedListReach({ lists, viewIds }: ListRouteDeps): Reach {
  return (request, route) => reachNamedList(lists, viewIds, request.params.list!, route);
}

// The routes of the lists `reach` finds. `change` refuses a view id, and answers a refusal judged
// with the list's pending changes once they settle (failing if one fails), never before theirs.
export function answersOn(reach: Reach) {
  const on = (answer: Answer) => (request: IRequest, responses: Responses) =>
    reach(request, (list, viewOnly) => answer(list, request, responses, viewOnly));
  const change = (answer: Answer) => (request: IRequest, responses: Responses) =>
    reach(request, async (list, viewOnly) => {
      refuseViewOnly(viewOnly);
      try {
        return await answer(list, request, responses, viewOnly);
      } catch (error) {
        if (error instanceof HttpProblem && REFUSALS_ON_CONTENT.has(error.status)) {
          await list.store.settled();
        }
        throw error;
      }
    });
  return { on, change };
}

function raise(problem: HttpProblem): never {
  throw problem;
}
