import { createApp, type App } from '../../app.ts';
import { isApiPath } from '../../http/cors.ts';
import { pathOf } from '../../http/routing.ts';
import type { Env } from './env.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { appConfigFromVars } from './vars-config.ts';
import { workersAssets } from './workers-assets.ts';

export { TodoListObject } from './todo-list-object.ts';

/** There is one list, so one object: every isolate addresses it by this name. */
const LIST_NAME = 'todos';

/** This isolate's handler for what needs no list: `/hello` and `public/`. */
let edge: App | undefined;

function route(request: Request, env: Env): Promise<Response> {
  if (isApiPath(pathOf(request.url))) {
    return env.TODO_LIST.get(env.TODO_LIST.idFromName(LIST_NAME)).fetch(request);
  }
  edge ??= createApp({ config: appConfigFromVars(env), assets: workersAssets(env.ASSETS) });
  return edge.fetch(request);
}

export default {
  fetch: (request, env) => answerAfterBody(request, (forwarded) => route(forwarded, env)),
} satisfies ExportedHandler<Env>;
