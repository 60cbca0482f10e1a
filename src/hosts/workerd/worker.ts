import { createSite } from '../../app.ts';
import { ConfigError } from '../../config.ts';
import type { Handler } from '../../handler.ts';
import { isApiPath } from '../../http/cors.ts';
import { HttpProblem } from '../../http/problem.ts';
import { Responses } from '../../http/responses.ts';
import { REQUEST_ID_HEADER, requestIdOf } from '../../http/request-id.ts';
import { pathOf } from '../../http/routing.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { LIST_NAME, type Env } from './env.ts';
import { workerConfigFromVars, type WorkerConfig } from './vars-config.ts';
import { workersAssets } from './workers-assets.ts';

export { TodoListObject } from './todo-list-object.ts';

/** This isolate's configuration, read from `[vars]` once, or what is wrong with them. */
let config: WorkerConfig | ConfigError | undefined;
/** This isolate's handler for what needs no list: `/hello` and `public/`. */
let site: Handler | undefined;

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
  const requestId = requestIdOf(request);
  const response = new Responses(Response).problem(
    problem,
    isApiPath(pathOf(request.url)),
    requestId,
  );
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

function route(request: Request, env: Env): Promise<Response> {
  const config = configOf(env);
  if (config instanceof ConfigError) {
    return answerAfterBody(request, async () => misconfigured(config, request));
  }
  if (isApiPath(pathOf(request.url))) {
    const list = env.TODO_LIST.get(env.TODO_LIST.idFromName(LIST_NAME));
    // One byte over the limit is all the object's handler needs to refuse a body.
    const needed = config.app.limits.maxBodyBytes + 1;
    return answerAfterBody(request, (forwarded) => list.fetch(forwarded), needed);
  }
  site ??= createSite({ assets: workersAssets(env.ASSETS) });
  return answerAfterBody(request, site);
}

export default {
  fetch: (request, env) => route(request, env),
} satisfies ExportedHandler<Env>;
