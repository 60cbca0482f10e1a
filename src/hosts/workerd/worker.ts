import type { AssetSource } from '../../api/site.ts';
import { createApp } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import { firstBytes, readRest } from '../../http/body.ts';
import { HttpProblem, serverFailure } from '../../http/problem.ts';
import { requestIdOf } from '../../http/request.ts';
import { isApiPath, Responses } from '../../http/responses.ts';
import { pathOf, type Handler } from '../../http/router.ts';
import { bindingLimiter, OpenStreamsPerClient } from '../../http/client-limits.ts';
import { ViewIds } from '../../lists/list-id.ts';
import { LISTS_PATH } from '../../model/resources.ts';
import { configFromVars } from './vars.ts';
import { relayEvents } from './event-relay.ts';
import { reportError } from './error-log.ts';
import { LIST_NAME, objectIdOf, workerLists, type Env } from './todo-list-object.ts';

export { TodoListObject } from './todo-list-object.ts';

/** `public/` as Workers static assets: `html_handling = "none"` keeps each file at its path. */
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

/** The object of the list a path names, if the runtime knows its id, and whether it streams. */
async function listObjectOf(path: string, { TODO_LIST }: Env, viewIds: ViewIds) {
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

/** How much of a refused body is still read: the most Cloudflare passes a worker (Free, Pro). */
const READ_REST_LIMIT_BYTES = 100 * 1024 * 1024;

/**
 * Answers with the body's first `maxBodyBytes + 1` bytes as one buffer, and reads the rest before
 * the answer ends; a body that breaks is answered 400 (docs/hosts.md says why).
 */
async function answerAfterBody(request: Request, answer: Handler, maxBodyBytes: number) {
  if (request.body === null) return answer(request);
  const source = request.body.getReader();
  const tooLong = Number(request.headers.get('content-length')) > maxBodyBytes;
  const most = maxBodyBytes + 1;
  let response: Response;
  try {
    // A body declared too long is not waited for: the handler refuses it by its size unread.
    const body = tooLong ? new Uint8Array(most) : await firstBytes(source, most);
    response = await answer(new Request(request, { body }));
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
    response = new Responses(Response, requestIdOf(request)).problem(error, true);
  }
  if ((!tooLong && (await readRest(source, maxBodyBytes))) || !response.body) return response;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const sent = response.body.pipeTo(writable, { preventClose: true }).catch(() => {});
  void sent.then(async () => {
    if (!(await readRest(source, READ_REST_LIMIT_BYTES))) await source.cancel().catch(() => {});
    await writable.close().catch(() => {});
  });
  return new Response(readable, response);
}

/** The client's address, as Cloudflare's edge sets it (and `wrangler dev`, from the socket). */
const clientAddressOf = (request: Request) => request.headers.get('cf-connecting-ip') ?? undefined;

/** What this isolate read from `[vars]` on its first request, its handler and its streams. */
let isolate: ReturnType<typeof started> | undefined;

async function route(request: Request, env: Env): Promise<Response> {
  isolate ??= started(env);
  if (isolate instanceof ConfigError) {
    // Every request's answer while `[vars]` are wrong: the operator sees what to change.
    const detail = `The service is misconfigured. ${isolate.problems.join(' ')}`;
    const responses = new Responses(Response, requestIdOf(request));
    const answer = responses.problem(new HttpProblem(500, detail), isApiPath(pathOf(request.url)));
    return answerAfterBody(request, async () => answer, 0);
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
  const answer = list ? (forwarded: Request) => list.object().fetch(forwarded) : handler;
  return answerAfterBody(request, answer, config.app.limits.maxBodyBytes);
}

function started(env: Env) {
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
  const listCreations = bindingLimiter(env.LIST_CREATIONS!, config.app.limits.listsPerMinute);
  const viewIds = new ViewIds(config.viewSecret);
  const host = { assets: workersAssets(env.ASSETS), clientAddressOf, listCreations, reportError };
  const app = createApp({ config: config.app, lists: () => workerLists(env), viewIds, host });
  // This isolate's streams: a client reaching several isolates may hold more.
  const streams = new OpenStreamsPerClient(config.app.sse.maxClientsPerAddress);
  return { config, viewIds, handler: app.fetch, streams };
}

export default { fetch: route } satisfies ExportedHandler<Env>;
