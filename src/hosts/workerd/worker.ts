import type { AssetSource } from '../../api/site.ts';
import { createApp } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { HttpProblem, serverFailure } from '../../http/problem.ts';
import { IDEMPOTENCY_KEY, requestIdOf } from '../../http/request.ts';
import { isApiPath, Responses } from '../../http/responses.ts';
import { pathOf, type Handler } from '../../http/router.ts';
import { bindingLimiter, OpenStreamsPerClient } from '../../http/client-limits.ts';
import { ViewIds } from '../../lists/list-id.ts';
import type { ListDirectory } from '../../lists/live-list.ts';
import type { StoredList } from '../../store/changes.ts';
import { LISTS_PATH } from '../../model/resources.ts';
import { configFromVars, type WorkerConfig } from './vars.ts';
import { relayEvents } from './event-relay.ts';
import { reportError } from './error-log.ts';
import {
  answerAfterBody,
  LIST_NAME,
  objectIdOf,
  type Env,
  type ListCreated,
} from './todo-list-object.ts';

export { TodoListObject } from './todo-list-object.ts';

/** The name of the object a list made with the key `key` lives in; never the default list's. */
const keyedName = (key: string) => `${IDEMPOTENCY_KEY} ${key}`;

/**
 * The lists as the worker sees them: it holds none, and makes each new one in an object of its
 * own. A list made with an `Idempotency-Key` is made in the object named after the key, which
 * answers a retry as it answered the first create: there is no directory of keys to consult.
 */
function workerLists({ TODO_LIST }: Env): ListDirectory {
  /** `refusal`: why the worker did not admit the list, when the object says it did not. */
  const madeBy = (created: ListCreated, refusal?: unknown): StoredList => {
    if ('unadmitted' in created) throw refusal ?? new Error('The object made no list.');
    if ('refused' in created) throw new HttpProblem(created.refused.status, created.refused.detail);
    return created.made;
  };
  return {
    defaultList: undefined,
    named: new Map(),
    create: async (title, key, admit = async () => {}) => {
      if (key === undefined) {
        await admit();
        return madeBy(await TODO_LIST.get(TODO_LIST.newUniqueId()).create(title));
      }
      // The object calls back to count the create only when it is about to make the list, and
      // holds the key meanwhile. A refusal stays here, with its headers.
      let refusal: unknown;
      const keepRefusal = (error: unknown) => {
        refusal = error;
        return false;
      };
      const admitted = () => admit().then(() => true, keepRefusal);
      const object = TODO_LIST.get(TODO_LIST.idFromName(keyedName(key)));
      const created = await object.create(title, key, admitted);
      return madeBy(created, refusal);
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

/** The client's address, as Cloudflare's edge sets it (and `wrangler dev`, from the socket). */
const clientAddressOf = (request: Request) => request.headers.get('cf-connecting-ip') ?? undefined;

interface Isolate {
  readonly config: WorkerConfig;
  readonly viewIds: ViewIds;
  readonly handler: Handler;
  /** This isolate's streams: a client reaching several isolates may hold more. */
  readonly streams: OpenStreamsPerClient;
}

/** What this isolate read from `[vars]` on its first request, its handler and its streams. */
let isolate: Isolate | ConfigError | undefined;

async function route(request: Request, env: Env): Promise<Response> {
  isolate ??= started(env);
  if (isolate instanceof ConfigError) {
    // Every request's answer while `[vars]` are wrong: the operator sees what to change.
    const detail = `The service is misconfigured. ${isolate.problems.join(' ')}`;
    const responses = new Responses(Response, requestIdOf(request));
    const api = isApiPath(pathOf(request.url));
    return answerAfterBody(
      request,
      async () => responses.problem(new HttpProblem(500, detail), api),
      0,
    );
  }
  const { config, viewIds, handler, streams } = isolate;
  const list = await listObjectOf(pathOf(request.url), env, viewIds);
  if (list?.stream && request.method === 'GET') {
    const responses = new Responses(Response, requestIdOf(request));
    try {
      const free = streams.take(clientAddressOf(request));
      return await relayEvents(request, list.object, config.app.sse.heartbeatSeconds, free);
    } catch (error) {
      // The object failed to answer (it was reset, say): as any unexpected error, logged.
      if (!(error instanceof HttpProblem)) reportError(error, request, responses.requestId);
      return responses.problem(error instanceof HttpProblem ? error : serverFailure(), true);
    }
  }
  const maxBodyBytes = config.app.limits.maxBodyBytes;
  if (list === undefined) return answerAfterBody(request, handler, maxBodyBytes);
  return answerAfterBody(request, (forwarded) => list.object().fetch(forwarded), maxBodyBytes);
}

function started(env: Env): Isolate | ConfigError {
  let config = configFromVars(env);
  if (!(config instanceof ConfigError) && env.LIST_CREATIONS === undefined) {
    config = new ConfigError([
      'wrangler.toml binds no [[ratelimits]] named LIST_CREATIONS, which counts list creations.',
    ]);
  }
  if (config instanceof ConfigError) {
    console.error(
      `The worker's [vars] are wrong; it answers 500 until they are fixed.\n${config.message}`,
    );
    return config;
  }
  const lists = () => workerLists(env);
  const listCreations = bindingLimiter(env.LIST_CREATIONS!, config.app.limits.listsPerMinute);
  const viewIds = new ViewIds(config.viewSecret);
  const host = { assets: workersAssets(env.ASSETS), clientAddressOf, listCreations, reportError };
  const app = createApp({ config: config.app, lists, viewIds, host });
  const streams = new OpenStreamsPerClient(config.app.sse.maxClientsPerAddress);
  return { config, viewIds, handler: app.fetch, streams };
}

export default { fetch: route } satisfies ExportedHandler<Env>;
