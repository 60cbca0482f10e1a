import { describe, expect, it } from 'vitest';
import { MemoryTodoStore } from '../../src/todos/store.ts';
import { createTodo, expectProblem, MISSING_ID, sendJson } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

/** A store whose every change fails, as a bug in it would. */
class BrokenStore extends MemoryTodoStore {
  override create(): never {
    throw new Error('disk on fire at /srv/secret/store.ts:42');
  }
}

/** CONTRACT.md, Errors. */
export function errorsSuite(host: TestHost) {
  describe('errors', () => {
    const api = useService(host);

    it('answers an unknown path with 404 as problem+json', async () => {
      const problem = await expectProblem(await api().fetch('/no/such/page'), 404);
      expect(problem.title).toBe('Not Found');
    });

    it('answers an unknown API path with 404 as problem+json', async () => {
      await expectProblem(await api().fetch('/api/nothing'), 404);
    });

    it('answers a path below an item with 404', async () => {
      const todo = await createTodo(api());
      await expectProblem(await api().fetch(`/api/todos/${todo.id}/more`), 404);
    });

    it('says which item was missing in a 404 detail', async () => {
      const problem = await expectProblem(await api().fetch(`/api/todos/${MISSING_ID}`), 404);
      expect(problem.detail).toMatch(/no to-do/i);
    });

    it.each(['PATCH', 'DELETE', 'PUT'])(
      'answers %s /api/todos with 405 and the allowed methods',
      async (method) => {
        const response = await api().fetch('/api/todos', { method });
        await expectProblem(response, 405);
        expect(response.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      },
    );

    it.each(['PATCH', 'POST'])(
      'answers %s /api/todos/:id with 405 and the allowed methods',
      async (method) => {
        const todo = await createTodo(api());
        const response = await api().fetch(`/api/todos/${todo.id}`, { method });
        await expectProblem(response, 405);
        expect(response.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
      },
    );

    it('gives validation errors a pointer and a detail each', async () => {
      const problem = await expectProblem(
        await api().fetch('/api/todos', sendJson('POST', { title: 3 })),
        400,
      );
      expect(problem.errors).toEqual([
        { pointer: '/title', detail: expect.stringContaining('string') },
      ]);
    });
  });

  describe('unexpected failures', () => {
    const reported: unknown[] = [];
    const api = useService(host, {
      store: new BrokenStore(),
      reportError: (error) => reported.push(error),
    });

    it('answers an exception with 500 as problem+json', async () => {
      await expectProblem(await api().fetch('/api/todos', sendJson('POST', { title: 'a' })), 500);
    });

    it('keeps the stack, paths and message of an exception from the client', async () => {
      const response = await api().fetch('/api/todos', sendJson('POST', { title: 'a' }));
      const text = await response.text();
      expect(text).not.toMatch(/fire|secret|store\.ts|at |node_modules/);
    });

    it('puts CORS headers on a 500 under /api/', async () => {
      const response = await api().fetch('/api/todos', sendJson('POST', { title: 'a' }));
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('reports the exception to the host', async () => {
      reported.length = 0;
      await api().fetch('/api/todos', sendJson('POST', { title: 'a' }));
      expect(
        JSON.stringify(reported, (_key, value) => (value instanceof Error ? value.stack : value)),
      ).toContain('disk on fire');
    });
  });
}
