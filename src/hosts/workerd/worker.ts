import { createApp } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import type { Handler } from '../../handler.ts';
import { isApiPath } from '../../http/cors.ts';
import { IDEMPOTENCY_KEY } from '../../http/idempotency-key.ts';
import { HttpProblem } from '../../http/problem.ts';
import { Responses } from '../../http/responses.ts';
import { requestIdOf } from '../../http/request-id.ts';
import { pathOf } from '../../http/url-path.ts';
import type { ListDirectory } from '../../lists/list-directory.ts';
import { DEFAULT_LIST_PATHS, LISTS_PATH, namedListPaths } from '../../lists/list-paths.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { LIST_NAME, type Env } from './env.ts';
import { relayEvents } from './event-relay.ts';
import { objectIdOf } from './object-ids.ts';
import { workerConfigFromVars, type WorkerConfig } from './vars-config.ts';
import { workersAssets } from './workers-assets.ts';

export { TodoListObject } from './todo-list-object.ts';

/** The name of the object a list made with the key `key` lives in; never the default list's. */
const keyedName = (key: string) => `${IDEMPOTENCY_KEY} ${key}`;

/** Whether `path` is `base` or below it. */
const isUnder = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/** This isolate's configuration, read from `[vars]` once, or what is wrong with them. */
let config: WorkerConfig | ConfigError | undefined;
/** This isolate's handler for what no list's object answers. */
let handler: Handler | undefined;

function configOf(env: Env): WorkerConfig | ConfigError {
  if (config !== undefined) return config;
  try {
    config = workerConfigFromVars(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    config = error;
    console.error(
      `The worker's [vars] are wrong; it answers 500 until they are fixed.\n${error.message}`,
    );
  }
  return config;
}

/** Every request's answer while `[vars]` are wrong: the operator sees what to change. */
function misconfigured(error: ConfigError, request: Request): Response {
  const problem = new HttpProblem(500, `The service is misconfigured. ${error.problems.join(' ')}`);
  return new Responses(Response, requestIdOf(request)).problem(
    problem,
    isApiPath(pathOf(request.url)),
  );
}

/**
 * The lists as the worker sees them: it holds none, and makes each new one in an object of
 * its own. A request for a list it could name went to that list's object before the handler.
 * A list made with an `Idempotency-Key` is made in the object named after the key, which
 * answers a retry as it answered the first create: there is no directory of keys to consult.
 */
function workerLists(env: Env): ListDirectory {
  const { TODO_LIST } = env;
  return {
    defaultList: undefined,
    find: () => undefined,
    create: async (title, key) => {
      const id = key === undefined ? TODO_LIST.newUniqueId() : TODO_LIST.idFromName(keyedName(key));
      const created = await TODO_LIST.get(id).create(title, key);
      if ('refused' in created)
        throw new HttpProblem(created.refused.status, created.refused.detail);
      return created.made;
    },
    delete: () => Promise.reject(new Error('The worker holds no list to delete.')),
    held: () => [],
  };
}

/**
 * The object of the list a path names: the default list's by its name, a named list's by its
 * id, which is the object's own. An id the runtime does not recognise names no object: the
 * worker's own handler answers it, exactly as an object answers for a list that is gone.
 */
function listObjectOf(path: string, env: Env): DurableObjectStub | undefined {
  const { todos, sse } = DEFAULT_LIST_PATHS;
  if (isUnder(path, todos) || isUnder(path, sse)) {
    return env.TODO_LIST.get(env.TODO_LIST.idFromName(LIST_NAME));
  }
  if (!path.startsWith(`${LISTS_PATH}/`)) return undefined;
  const listId = path.slice(LISTS_PATH.length + 1).split('/', 1)[0]!;
  const objectId = objectIdOf(env.TODO_LIST, listId);
  return objectId && env.TODO_LIST.get(objectId);
}

/**
 * A list's event stream, with any trailing slashes, as the router matches it: the worker holds
 * it, so that the list's object can hibernate.
 */
function isStreamPath(path: string): boolean {
  const trimmed = path.replace(/\/+$/, '');
  const listId = trimmed.slice(LISTS_PATH.length + 1).split('/', 1)[0]!;
  return trimmed === DEFAULT_LIST_PATHS.sse || trimmed === namedListPaths(listId).sse;
}

function route(request: Request, env: Env): Promise<Response> {
  const config = configOf(env);
  if (config instanceof ConfigError) {
    return answerAfterBody(request, async () => misconfigured(config, request));
  }
  const path = pathOf(request.url);
  const list = listObjectOf(path, env);
  if (list !== undefined && request.method === 'GET' && isStreamPath(path)) {
    const listObject = () => listObjectOf(path, env)!;
    return relayEvents(request, listObject, config.app.sse.heartbeatSeconds);
  }
  if (list !== undefined) {
    // One byte over the limit is all the object's handler needs to refuse a body.
    const needed = config.app.limits.maxBodyBytes + 1;
    return answerAfterBody(request, (forwarded) => list.fetch(forwarded), needed);
  }
  handler ??= createApp({
    config: config.app,
    lists: () => workerLists(env),
    host: { assets: workersAssets(env.ASSETS) },
  }).fetch;
  return answerAfterBody(request, handler);
}

export default {
  fetch: (request, env) => route(request, env),
} satisfies ExportedHandler<Env>;
