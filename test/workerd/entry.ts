import { TodoListObject } from '../../src/hosts/workerd/worker.ts';

export { default, TodoListObject } from '../../src/hosts/workerd/worker.ts';

/**
 * The real object, plus what only a test may do to it, through Miniflare's stub. The worker
 * never calls these, and no request can reach them.
 */
export class TestTodoListObject extends TodoListObject {
  /** Drops the object from memory, as an eviction does: the next request meets a new one. */
  forget(): void {
    this.ctx.abort('forgotten by the test host');
  }

  /** What the object still holds for event clients, as `TestService.streamStats` gives it. */
  streamStats() {
    return {
      openStreams: this.app.events.openCount,
      storeSubscribers: this.app.store.subscriberCount,
      heartbeatRunning: this.app.events.heartbeatRunning,
    };
  }
}
