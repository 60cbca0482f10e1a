import { DurableObject } from 'cloudflare:workers';
import { createApp, type App } from '../../app.ts';
import { openSqliteTodoStore } from '../../todos/sqlite-store.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { durableSql } from './durable-sql.ts';
import type { Env } from './env.ts';
import { workerConfigFromVars } from './vars-config.ts';

/**
 * The one object every `/api/` request reaches, from whichever isolate: it holds the handler,
 * and with it the list and the event clients, in its memory. With `STORAGE = "sqlite"` the list
 * is also kept in the object's SQLite storage and comes back when the object does; else it
 * starts empty again whenever the object leaves memory.
 */
export class TodoListObject extends DurableObject<Env> {
  protected readonly app: App;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const { app: config, storage } = workerConfigFromVars(env);
    const store =
      storage === 'sqlite'
        ? openSqliteTodoStore(durableSql(ctx.storage), { keepChanges: config.sse.replayEvents })
        : undefined;
    this.app = createApp({ config, store });
  }

  // The object, not the worker, must finish the body: workerd breaks the worker-to-object body
  // pipe when the object answers first, and the client then sees a reset or a hang.
  override fetch(request: Request): Promise<Response> {
    return answerAfterBody(request, (forwarded) => this.app.fetch(forwarded));
  }
}
