import { createApp, type App } from '../../app.ts';
import type { AppConfig } from '../../config.ts';
import { isApiPath } from '../../http/cors.ts';
import { pathOf } from '../../http/routing.ts';
import { LIST_NAME, type Env } from './env.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { appConfigFromVars } from './vars-config.ts';
import { workersAssets } from './workers-assets.ts';

export { TodoListObject } from './todo-list-object.ts';

/** This isolate's configuration, read from `[vars]` once. */
let config: AppConfig | undefined;
/** This isolate's handler for what needs no list: `/hello` and `public/`. */
let edge: App | undefined;

function route(request: Request, env: Env): Promise<Response> {
  config ??= appConfigFromVars(env);
  if (isApiPath(pathOf(request.url))) {
    const list = env.TODO_LIST.get(env.TODO_LIST.idFromName(LIST_NAME));
    // One byte over the limit is all the object's handler needs to refuse a body.
    const needed = config.limits.maxBodyBytes + 1;
    return answerAfterBody(request, (forwarded) => list.fetch(forwarded), needed);
  }
  edge ??= createApp({ config, assets: workersAssets(env.ASSETS) });
  return answerAfterBody(request, (forwarded) => edge!.fetch(forwarded));
}

export default {
  fetch: (request, env) => route(request, env),
} satisfies ExportedHandler<Env>;
