import { createApp, type App } from '../../app.ts';
import { isApiPath } from '../../http/cors.ts';
import { pathOf } from '../../http/routing.ts';
import { LIST_NAME, type Env } from './env.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { appConfigFromVars } from './vars-config.ts';
import { workersAssets } from './workers-assets.ts';

export { TodoListObject } from './todo-list-object.ts';

/** This isolate's handler for what needs no list: `/hello` and `public/`. */
let edge: App | undefined;

function route(request: Request, env: Env): Promise<Response> {
  // The object reads what its handler leaves of the body itself (see TodoListObject.fetch).
  if (isApiPath(pathOf(request.url))) {
    return env.TODO_LIST.get(env.TODO_LIST.idFromName(LIST_NAME)).fetch(request);
  }
  edge ??= createApp({ config: appConfigFromVars(env), assets: workersAssets(env.ASSETS) });
  return answerAfterBody(request, (forwarded) => edge!.fetch(forwarded));
}

export default {
  fetch: (request, env) => route(request, env),
} satisfies ExportedHandler<Env>;
