import { DurableObject } from 'cloudflare:workers';
import { createApp, type App } from '../../app.ts';
import type { Env } from './env.ts';
import { appConfigFromVars } from './vars-config.ts';

/**
 * The one object every `/api/` request reaches, from whichever isolate: it holds the handler,
 * and with it the list and the event clients, in its memory. Nothing is written to storage;
 * when the object leaves memory the list starts empty again, as SPEC.md has it.
 */
export class TodoListObject extends DurableObject<Env> {
  protected readonly app: App;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.app = createApp({ config: appConfigFromVars(env) });
  }

  override fetch(request: Request): Promise<Response> {
    return this.app.fetch(request);
  }
}
