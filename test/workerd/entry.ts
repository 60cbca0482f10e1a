import worker, { TodoListObject as ListObject } from '../../src/hosts/workerd/worker.ts';
import { LIST_NAME, type Env } from '../../src/hosts/workerd/env.ts';
import { FORGET_REASON, TEST_PATHS } from './test-paths.ts';

/**
 * The real object under the name `wrangler.toml` binds, plus what only a test may do to it.
 * The test hosts reach these through `TEST_PATHS`.
 */
export class TodoListObject extends ListObject {
  /** Drops the object from memory, as an eviction does: the next request meets a new one. */
  evict(): void {
    this.ctx.abort(FORGET_REASON);
  }

  /** Evicts the object with its storage wiped: the next request meets an empty list. */
  async forget(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.evict();
  }

  /** What the object still holds for event clients, as `TestService.streamStats` gives it. */
  streamStats() {
    return {
      openStreams: this.app.events.openCount,
      heartbeatRunning: this.app.events.heartbeatRunning,
    };
  }
}

function listObject(env: Env) {
  const namespace = env.TODO_LIST as unknown as DurableObjectNamespace<TodoListObject>;
  return namespace.get(namespace.idFromName(LIST_NAME));
}

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === TEST_PATHS.forget || path === TEST_PATHS.evict) {
      const object = listObject(env);
      // The call fails by design, with the reason it gave: the object it runs in is aborted.
      await (path === TEST_PATHS.forget ? object.forget() : object.evict()).catch(
        (error: unknown) => {
          if (!String(error).includes(FORGET_REASON)) throw error;
        },
      );
      return new Response(null, { status: 204 });
    }
    if (path === TEST_PATHS.streamStats) {
      return Response.json(await listObject(env).streamStats());
    }
    return worker.fetch(request, env);
  },
} satisfies ExportedHandler<Env>;
