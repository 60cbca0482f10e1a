import { DurableObject } from 'cloudflare:workers';
import { createApp, type App } from '../../app.ts';
import type { StoredList } from '../../todos/store.ts';
import { answerAfterBody } from './answer-after-body.ts';
import { durableSql } from './durable-sql.ts';
import { LIST_NAME, type Env } from './env.ts';
import { listIdOf } from './object-ids.ts';
import { singleList } from '../../lists/single-list.ts';
import { workerConfigFromVars } from './vars-config.ts';

/**
 * One list's object, reached from whichever isolate: the default list's (`/api/todos`,
 * `/api/sse`), or a named list's (`/api/lists/{id}/…`), whose id is the object's own. It holds
 * the handler, and with it the list and its event clients, in its memory; see `singleList` for
 * where each kind of list is kept.
 */
export class TodoListObject extends DurableObject<Env> {
  protected readonly app: App;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const { app: config, storage } = workerConfigFromVars(env);
    const isDefault = ctx.id.equals(env.TODO_LIST.idFromName(LIST_NAME));
    const lists = singleList({
      listId: isDefault ? undefined : listIdOf(ctx.id),
      keepDefault: storage === 'sqlite',
      sql: durableSql(ctx.storage),
      deleteAll: () => ctx.storage.deleteAll(),
    });
    this.app = createApp({ config, lists });
  }

  /** Makes this object's list, named `title`: the worker's `POST /api/lists`, by RPC. */
  create(title: string): Promise<StoredList> {
    return this.app.lists.create(title);
  }

  // The object, not the worker, must finish the body: workerd breaks the worker-to-object body
  // pipe when the object answers first, and the client then sees a reset or a hang.
  override fetch(request: Request): Promise<Response> {
    return answerAfterBody(request, (forwarded) => this.app.fetch(forwarded));
  }
}
