import { describe, expect, it } from 'vitest';
import type { ListInfo } from '../../src/model/resources.ts';
import type { ListStores } from '../../src/storage/kept-lists.ts';
import { ListStore } from '../../src/store/list-store.ts';
import { createTodo, expectProblem, MISSING_ID, onList, sendJson } from '../support/api.ts';
import { BARE_STORE_OPTIONS, useService, type TestHost } from '../support/hosts.ts';
import { expectNoLeak, expectNoLeakInHeaders } from '../support/leaks.ts';

/** A store whose every read and change of items fails, as a bug in it would. */
class BrokenStore extends ListStore {
  constructor(
    private readonly failure: Error,
    info?: ListInfo,
  ) {
    super({ info, ...BARE_STORE_OPTIONS, reportError: () => {} });
  }

  override items(): never {
    throw this.failure;
  }

  override get(): never {
    throw this.failure;
  }

  override create(): never {
    throw this.failure;
  }
}

/** Every list's store a broken one, the default list's and each named list's. */
function brokenStores(failure = new Error('disk on fire at /srv/secret/store.ts:42')): ListStores {
  return {
    openDefault: () => new BrokenStore(failure),
    openKept: () => [],
    create: async (info) => new BrokenStore(failure, info),
    remove: async () => {},
    keptKeys: () => [],
  };
}

/** A request to every route that reaches the store; each fails with the store. */
const STORE_REQUESTS: readonly [string, string, RequestInit][] = [
  ['POST /api/todos', '/api/todos', sendJson('POST', { title: 'a' })],
  ['GET /api/todos', '/api/todos', {}],
  ['GET /api/todos/:id', `/api/todos/${MISSING_ID}`, {}],
  [
    'PUT /api/todos/:id',
    `/api/todos/${MISSING_ID}`,
    sendJson('PUT', { title: 'a', completed: true }),
  ],
  ['DELETE /api/todos/:id', `/api/todos/${MISSING_ID}`, { method: 'DELETE' }],
  ['GET /api/sse', '/api/sse', {}],
];

/** docs/api.md, Errors. */
export function errorsSuite(host: TestHost) {
  describe('errors', () => {
    const api = useService(host);

    it('answers an unknown path with 404 as problem+json', async () => {
      const problem = await expectProblem(await api().fetch('/no/such/page'), 404);
      expect(problem.title).toBe('Not Found');
    });

    it('answers POST to a path that names nothing with 404', async () => {
      await expectProblem(await api().fetch('/no/such/page', { method: 'POST' }), 404);
    });

    it.each([
      [400, 'Bad Request', sendJson('POST', '{')],
      [405, 'Method Not Allowed', { method: 'PATCH' }],
      [413, 'Content Too Large', sendJson('POST', 'x'.repeat(20000))],
      [415, 'Unsupported Media Type', { method: 'POST', body: new Uint8Array(2) }],
    ])('titles a %i problem %j, its status phrase', async (status, title, init) => {
      expect((await expectProblem(await api().fetch(api().paths.todos, init), status)).title).toBe(
        title,
      );
    });

    it.each([
      ['400 for malformed JSON', '/api/todos', sendJson('POST', '{"title": "a",}')],
      [
        '400 for invalid UTF-8',
        '/api/todos',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: new Uint8Array([0x7b, 0xff, 0x7d]),
        },
      ],
      ['400 for a wrong field', '/api/todos', sendJson('POST', { title: 1, __proto__x: 1 })],
      ['404 for an unknown path', '/no/such/page', {}],
      ['404 for an unknown API path', '/api/nothing', {}],
      ['405 for a wrong method', '/api/todos', { method: 'PATCH' }],
      ['413 for a body too large', '/api/todos', sendJson('POST', 'x'.repeat(20000))],
      ['415 for a wrong media type', '/api/todos', { method: 'POST', body: 'x' }],
    ])('tells nothing of the server in its %s', async (_name, path, init) => {
      const response = await api().fetch(onList(api(), path), init);
      expectNoLeak(await response.text());
      expectNoLeakInHeaders(response.headers);
    });

    it('answers an unknown API path with 404 as problem+json', async () => {
      await expectProblem(await api().fetch('/api/nothing'), 404);
    });

    it('answers a path below an item with 404', async () => {
      const todo = await createTodo(api());
      await expectProblem(await api().fetch(`${api().paths.todos}/${todo.id}/more`), 404);
    });

    it('says which item was missing in a 404 detail', async () => {
      const problem = await expectProblem(
        await api().fetch(`${api().paths.todos}/${MISSING_ID}`),
        404,
      );
      expect(problem.detail).toMatch(/no to-do/i);
    });

    it.each(['PATCH', 'DELETE', 'PUT'])(
      'answers %s /api/todos with 405 and the allowed methods',
      async (method) => {
        const response = await api().fetch(api().paths.todos, { method });
        await expectProblem(response, 405);
        expect(response.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      },
    );

    it.each(['PATCH', 'POST'])(
      'answers %s /api/todos/:id with 405 and the allowed methods',
      async (method) => {
        const todo = await createTodo(api());
        const response = await api().fetch(`${api().paths.todos}/${todo.id}`, { method });
        await expectProblem(response, 405);
        expect(response.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
      },
    );

    it('gives validation errors a pointer and a detail each', async () => {
      const problem = await expectProblem(
        await api().fetch(api().paths.todos, sendJson('POST', { title: 3 })),
        400,
      );
      expect(problem.errors).toEqual([
        { pointer: '/title', detail: expect.stringContaining('string') },
      ]);
    });
  });
}

/**
 * docs/api.md, Errors: an unexpected exception. It takes a store that throws, so it runs only
 * on hosts that can hand the handler one (`TestHost.injects`).
 */
export function unexpectedFailuresSuite(host: TestHost) {
  describe('unexpected failures', () => {
    const reported: unknown[] = [];
    const api = useService(host, {
      stores: brokenStores(),
      reportError: (error) => reported.push(error),
    });

    it('answers an exception with 500 as problem+json', async () => {
      await expectProblem(
        await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' })),
        500,
      );
    });

    it('keeps the stack, paths and message of an exception from the client', async () => {
      const response = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      const text = await response.text();
      expect(text).not.toMatch(/fire|secret|store\.ts|at |node_modules/);
    });

    it.each(STORE_REQUESTS)(
      'answers %s with a 500 whose body tells nothing of the server',
      async (_name, path, init) => {
        const response = await api().fetch(onList(api(), path), init);
        const text = await response.text();
        expect(response.status).toBe(500);
        expectNoLeak(text);
      },
    );

    it.each(STORE_REQUESTS)(
      'answers %s with a 500 whose headers tell nothing of the server',
      async (_name, path, init) => {
        const response = await api().fetch(onList(api(), path), init);
        await response.body?.cancel();
        expect(response.status).toBe(500);
        expectNoLeakInHeaders(response.headers);
      },
    );

    it('gives every exception the same generic body', async () => {
      const bodies: string[] = [];
      for (const failure of [new TypeError('alpha'), new RangeError('beta')]) {
        const service = await host.start({
          stores: brokenStores(failure),
          reportError: () => {},
        });
        const response = await service.fetch(service.paths.todos, sendJson('POST', { title: 'a' }));
        // The instance names the request, so it differs; the rest must not.
        const { instance: _, ...body } = (await response.json()) as Record<string, unknown>;
        bodies.push(`${response.status} ${JSON.stringify(body)}`);
        await service.close();
      }
      expect(bodies[0]).toBe(bodies[1]);
      expect(bodies[0]).toMatch(/^500 /);
      expect(bodies[0]).not.toMatch(/TypeError|RangeError|alpha|beta/);
    });

    it('puts CORS headers on a 500 under /api/', async () => {
      const response = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('reports the exception to the host', async () => {
      reported.length = 0;
      await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      expect(
        JSON.stringify(reported, (_key, value) => (value instanceof Error ? value.stack : value)),
      ).toContain('disk on fire');
    });
  });
}
