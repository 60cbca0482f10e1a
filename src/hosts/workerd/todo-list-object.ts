import { DurableObject } from 'cloudflare:workers';
import { createApp, type App } from '../../app.ts';
import { answerAfterBody } from './answer-after-body.ts';
import type { Env } from './env.ts';
import { appConfigFromVars } from './vars-config.ts';

/**
 * The one object every `/api/` request reaches, from whichever isolate: it holds the handler,
 * and with it the list and the event clients, in its memory. Nothing is written to storage;
 * when the object leaves memory the list starts empty again.
 */
export class TodoListObject extends DurableObject<Env> {
  protected readonly app: App;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.app = createApp({ config: appConfigFromVars(env) });
  }

  // The object, not the worker, must finish the body: workerd breaks the worker-to-object body
  // pipe when the object answers first, and the client then sees a reset or a hang.
  override fetch(request: Request): Promise<Response> {
    return answerAfterBody(request, (forwarded) => this.app.fetch(forwarded));
  }
}
