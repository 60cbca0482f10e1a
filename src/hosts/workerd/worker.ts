import type { AssetSource } from '../../api/static-files.ts';
import { createApp } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { HttpProblem } from '../../http/problem.ts';
import { IDEMPOTENCY_KEY, requestIdOf } from '../../http/request.ts';
import { isApiPath, Responses } from '../../http/responses.ts';
import { pathOf, type Handler } from '../../http/router.ts';
import { ViewIds } from '../../lists/list-id.ts';
import type { ListDirectory } from '../../lists/live-list.ts';
import { LISTS_PATH } from '../../model/resources.ts';
import { configFromVars, type WorkerConfig } from './vars.ts';
import { relayEvents } from './event-relay.ts';
import { reportError } from './error-log.ts';
import { answerAfterBody, LIST_NAME, objectIdOf, type Env } from './todo-list-object.ts';

export { TodoListObject } from './todo-list-object.ts';

/** The name of the object a list made with the key `key` lives in; never the default list's. */
const keyedName = (key: string) => `${IDEMPOTENCY_KEY} ${key}`;

/**
 * The lists as the worker sees them: it holds none, and makes each new one in an object of its
 * own. A list made with an `Idempotency-Key` is made in the object named after the key, which
 * answers a retry as it answered the first create: there is no directory of keys to consult.
 */
function workerLists({ TODO_LIST }: Env): ListDirectory {
  return {
    defaultList: undefined,
    named: new Map(),
    create: async (title, key) => {
      const id = key === undefined ? TODO_LIST.newUniqueId() : TODO_LIST.idFromName(keyedName(key));
      const created = await TODO_LIST.get(id).create(title, key);
      if ('refused' in created)
        throw new HttpProblem(created.refused.status, created.refused.detail);
      return created.made;
    },
    delete: () => Promise.reject(new Error('The worker holds no list to delete.')),
    inMemory: () => [],
  };
}

/**
 * `public/` as Workers static assets, served as the handler decides, as on Node:
 * `html_handling = "none"` makes the binding answer each file at its own path, no redirects.
 */
function workersAssets(assets: Fetcher): AssetSource {
  return {
    async read(path) {
      // Any origin will do: the binding looks only at the path.
      const url = `https://assets.invalid/${path.split('/').map(encodeURIComponent).join('/')}`;
      const response = await assets.fetch(url);
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      if (!response.ok) throw new Error(`Workers assets answered ${response.status} for ${path}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}

/**
 * The object of the list a path names, and whether the path is its event stream. An id the
 * runtime does not recognise names none: the worker's handler answers as for a list gone.
 */
async function listObjectOf(
  path: string,
  { TODO_LIST }: Env,
  viewIds: ViewIds,
): Promise<{ object: () => DurableObjectStub; stream: boolean } | undefined> {
  // A list's stream, with any trailing slashes, as the router matches it.
  const stream = /^\/api\/(lists\/[^/]+\/)?sse\/*$/.test(path);
  if (/^\/api\/(todos|sse)(\/|$)/.test(path)) {
    return { object: () => TODO_LIST.get(TODO_LIST.idFromName(LIST_NAME)), stream };
  }
  if (!path.startsWith(`${LISTS_PATH}/`)) return undefined;
  const listId = path.slice(LISTS_PATH.length + 1).split('/')[0]!;
  // A view id is unwrapped here, and again by the object, which holds no table of them either.
  const objectId =
    objectIdOf(TODO_LIST, listId) ?? objectIdOf(TODO_LIST, (await viewIds.editIdOf(listId)) ?? '');
  return objectId && { object: () => TODO_LIST.get(objectId), stream };
}

/** What this isolate read from `[vars]` on its first request, and its handler. */
let isolate: { config: WorkerConfig; viewIds: ViewIds; handler: Handler } | ConfigError | undefined;

async function route(request: Request, env: Env): Promise<Response> {
  isolate ??= started(env);
  if (isolate instanceof ConfigError) {
    // Every request's answer while `[vars]` are wrong: the operator sees what to change.
    const detail = `The service is misconfigured. ${isolate.problems.join(' ')}`;
    const responses = new Responses(Response, requestIdOf(request));
    const api = isApiPath(pathOf(request.url));
    return answerAfterBody(request, async () =>
      responses.problem(new HttpProblem(500, detail), api),
    );
  }
  const { config, viewIds, handler } = isolate;
  const list = await listObjectOf(pathOf(request.url), env, viewIds);
  if (list?.stream && request.method === 'GET') {
    return relayEvents(request, list.object, config.app.sse.heartbeatSeconds);
  }
  if (list === undefined) return answerAfterBody(request, handler);
  // One byte over the limit is all the object's handler needs to refuse a body.
  const needed = config.app.limits.maxBodyBytes + 1;
  return answerAfterBody(request, (forwarded) => list.object().fetch(forwarded), needed);
}

function started(env: Env): Exclude<typeof isolate, undefined> {
  const config = configFromVars(env);
  if (config instanceof ConfigError) {
    console.error(
      `The worker's [vars] are wrong; it answers 500 until they are fixed.\n${config.message}`,
    );
    return config;
  }
  const lists = () => workerLists(env);
  const viewIds = new ViewIds(config.viewSecret);
  const host = { assets: workersAssets(env.ASSETS), reportError };
  const app = createApp({ config: config.app, lists, viewIds, host });
  return { config, viewIds, handler: app.fetch };
}

export default { fetch: route } satisfies ExportedHandler<Env>;
