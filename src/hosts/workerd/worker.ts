import type { AssetSource } from '../../api/static-files.ts';
import { createApp } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { HttpProblem } from '../../http/problem.ts';
import { IDEMPOTENCY_KEY, requestIdOf } from '../../http/request.ts';
import { isApiPath, Responses } from '../../http/responses.ts';
import { pathOf, type Handler } from '../../http/router.ts';
import type { ListDirectory } from '../../lists/live-list.ts';
import { LISTS_PATH } from '../../model/resources.ts';
import { workerConfigOf, type WorkerConfig } from './vars.ts';
import { relayEvents } from './event-relay.ts';
import { answerAfterBody, LIST_NAME, objectIdOf, type Env } from './todo-list-object.ts';

export { TodoListObject } from './todo-list-object.ts';

/** The name of the object a list made with the key `key` lives in; never the default list's. */
const keyedName = (key: string) => `${IDEMPOTENCY_KEY} ${key}`;

/**
 * The lists as the worker sees them: it holds none, and makes each new one in an object of
 * its own. A request for a list it could name went to that list's object before the handler.
 * A list made with an `Idempotency-Key` is made in the object named after the key, which
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

/** Any origin will do: the binding looks only at the path. */
const ASSETS_ORIGIN = 'https://assets.invalid';

/**
 * `public/` as Workers static assets, read through the `ASSETS` binding. The handler decides
 * which paths may be served and with which headers, as it does on Node; `html_handling = "none"`
 * in `wrangler.toml` makes the binding answer each file at its own path, without redirects.
 */
function workersAssets(assets: Fetcher): AssetSource {
  return {
    async read(path) {
      const url = `${ASSETS_ORIGIN}/${path.split('/').map(encodeURIComponent).join('/')}`;
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
 * The object of the list a path names, and whether the path is its event stream: the default
 * list's object by its name, a named list's by its id, which is the object's own. An id the
 * runtime does not recognise names no object: the worker's own handler answers it, exactly as
 * an object answers for a list that is gone.
 */
function listObjectOf(
  path: string,
  env: Env,
): { object: () => DurableObjectStub; stream: boolean } | undefined {
  // A list's stream, with any trailing slashes, as the router matches it.
  const trimmed = path.replace(/\/+$/, '');
  if (/^\/api\/(todos|sse)(\/|$)/.test(path)) {
    const object = () => env.TODO_LIST.get(env.TODO_LIST.idFromName(LIST_NAME));
    return { object, stream: trimmed === '/api/sse' };
  }
  if (!path.startsWith(`${LISTS_PATH}/`)) return undefined;
  const [listId, ...rest] = path.slice(LISTS_PATH.length + 1).split('/');
  const objectId = objectIdOf(env.TODO_LIST, listId!);
  if (objectId === undefined) return undefined;
  const stream = rest[0] === 'sse' && rest.slice(1).every((part) => part === '');
  return { object: () => env.TODO_LIST.get(objectId), stream };
}

/** What this isolate read from `[vars]` on its first request, and its handler. */
let isolate: { config: WorkerConfig; handler: Handler } | ConfigError | undefined;

function route(request: Request, env: Env): Promise<Response> {
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
  const { config, handler } = isolate;
  const path = pathOf(request.url);
  const list = listObjectOf(path, env);
  if (list?.stream && request.method === 'GET') {
    return relayEvents(request, list.object, config.app.sse.heartbeatSeconds);
  }
  if (list === undefined) return answerAfterBody(request, handler);
  // One byte over the limit is all the object's handler needs to refuse a body.
  const needed = config.app.limits.maxBodyBytes + 1;
  return answerAfterBody(request, (forwarded) => list.object().fetch(forwarded), needed);
}

function started(env: Env): { config: WorkerConfig; handler: Handler } | ConfigError {
  const config = workerConfigOf(env);
  if (config instanceof ConfigError) return config;
  const lists = () => workerLists(env);
  const app = createApp({ config: config.app, lists, host: { assets: workersAssets(env.ASSETS) } });
  return { config, handler: app.fetch };
}

export default {
  fetch: (request, env) => route(request, env),
} satisfies ExportedHandler<Env>;
