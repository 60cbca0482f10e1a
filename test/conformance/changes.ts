import { afterEach, describe, expect, it } from 'vitest';
import type { TodoChange } from '../../src/todos/changes.ts';
import { MemoryTodoStore } from '../../src/todos/store.ts';
import { createTodo, MISSING_ID, sendJson, snapshot } from '../support/api.ts';
import type { TestHost, TestService } from '../support/hosts.ts';

/**
 * CONTRACT.md, Errors ("a failed request ... emits no event") and HTTP details (the list's
 * ETag is the last change's id): the change records the event stream will carry.
 */
export function changesSuite(host: TestHost) {
  describe('change records', () => {
    let service: TestService | undefined;
    afterEach(() => service?.close());

    /** A service over a store whose announcements are collected in `changes`. */
    const watched = async () => {
      const store = new MemoryTodoStore();
      const changes: TodoChange[] = [];
      store.subscribe((change) => changes.push(change));
      service = await host.start({ store });
      return { api: service, store, changes };
    };

    it('announces a create, an update and a delete in order, with the item', async () => {
      const { api, changes } = await watched();
      const todo = await createTodo(api, { title: 'a' });
      await api.fetch(`/api/todos/${todo.id}`, sendJson('PUT', { title: 'b', completed: true }));
      await api.fetch(`/api/todos/${todo.id}`, { method: 'DELETE' });
      expect(changes.map(({ type, todo }) => [type, todo])).toEqual([
        ['created', { id: todo.id, title: 'a', completed: false }],
        ['updated', { id: todo.id, title: 'b', completed: true }],
        ['deleted', { id: todo.id, title: 'b', completed: true }],
      ]);
    });

    it('gives the list the ETag of the last change', async () => {
      const { api, changes } = await watched();
      await createTodo(api);
      await createTodo(api);
      expect((await snapshot(api)).etag).toBe(`"${changes.at(-1)!.version}"`);
    });

    it('gives every change a new version', async () => {
      const { api, changes } = await watched();
      for (let i = 0; i < 5; i += 1) await createTodo(api);
      expect(new Set(changes.map((change) => change.version)).size).toBe(5);
    });

    it('announces nothing for a refused request', async () => {
      const { api, changes } = await watched();
      const todo = await createTodo(api);
      changes.length = 0;
      const refused: [string, RequestInit][] = [
        ['/api/todos', sendJson('POST', { title: '' })],
        ['/api/todos', sendJson('POST', '{')],
        ['/api/todos', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }],
        ['/api/todos', sendJson('POST', 'x'.repeat(20000))],
        [`/api/todos/${todo.id}`, sendJson('PUT', { title: 'x' })],
        [
          `/api/todos/${todo.id}`,
          sendJson('PUT', { title: 'x', completed: true }, { 'if-match': '"old"' }),
        ],
        [`/api/todos/${MISSING_ID}`, sendJson('PUT', { title: 'x', completed: true })],
        [`/api/todos/${MISSING_ID}`, { method: 'DELETE' }],
        [`/api/todos/${todo.id}`, { method: 'DELETE', headers: { 'if-match': '"old"' } }],
      ];
      for (const [path, init] of refused) expect((await api.fetch(path, init)).ok).toBe(false);
      expect(changes).toEqual([]);
    });

    it('stops announcing to a subscriber that unsubscribed', async () => {
      const store = new MemoryTodoStore();
      const seen: TodoChange[] = [];
      const unsubscribe = store.subscribe((change) => seen.push(change));
      service = await host.start({ store });
      unsubscribe();
      await createTodo(service);
      expect([seen, store.subscriberCount]).toEqual([[], 0]);
    });

    it('keeps a change and the other subscribers when one subscriber throws', async () => {
      const reported: unknown[] = [];
      const store = new MemoryTodoStore({ reportError: (error) => reported.push(error) });
      const seen: TodoChange[] = [];
      store.subscribe(() => {
        throw new Error('listener bug');
      });
      store.subscribe((change) => seen.push(change));
      service = await host.start({ store });
      await createTodo(service);
      expect([(await snapshot(service)).todos.length, seen.length, reported.length]).toEqual([
        1, 1, 1,
      ]);
    });
  });
}
