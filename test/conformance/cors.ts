import { describe, expect, it } from 'vitest';
import { createTodo, MISSING_ID, sendJson } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

const ORIGIN = { origin: 'https://elsewhere.example' };

function expectCors(response: Response) {
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-expose-headers')).toBe('Location, ETag');
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
}

/** docs/api.md, CORS. */
export function corsSuite(host: TestHost) {
  describe('CORS on every /api/ answer', () => {
    const api = useService(host);

    it('allows any origin to read the list', async () => {
      expectCors(await api().fetch(api().paths.todos, { headers: ORIGIN }));
    });

    it('keeps a create 201 while adding CORS headers', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', { title: 'a' }, ORIGIN),
      );
      expect(response.status).toBe(201);
      expectCors(response);
    });

    const put = { title: 'b', completed: true };
    const cases: [string, number, (id: string) => [string, RequestInit]][] = [
      ['one item', 200, (id) => [`${api().paths.todos}/${id}`, { headers: ORIGIN }]],
      ['an update', 200, (id) => [`${api().paths.todos}/${id}`, sendJson('PUT', put, ORIGIN)]],
      [
        'a delete',
        200,
        (id) => [`${api().paths.todos}/${id}`, { method: 'DELETE', headers: ORIGIN }],
      ],
      ['a 304', 304, () => [api().paths.todos, { headers: { ...ORIGIN, 'if-none-match': '*' } }]],
      ['a 400', 400, () => [api().paths.todos, sendJson('POST', '{', ORIGIN)]],
      ['a 404', 404, () => [`${api().paths.todos}/${MISSING_ID}`, { headers: ORIGIN }]],
      ['a 404 for an unknown API path', 404, () => ['/api/nothing', { headers: ORIGIN }]],
      ['a 404 for /api itself', 404, () => ['/api', { headers: ORIGIN }]],
      ['a 405', 405, () => [api().paths.todos, { method: 'PATCH', headers: ORIGIN }]],
      [
        'a 412',
        412,
        (id) => [
          `${api().paths.todos}/${id}`,
          { method: 'DELETE', headers: { ...ORIGIN, 'if-match': '"x"' } },
        ],
      ],
      ['a 413', 413, () => [api().paths.todos, sendJson('POST', 'x'.repeat(20000), ORIGIN)]],
      [
        'a 415',
        415,
        () => [
          api().paths.todos,
          { method: 'POST', headers: { ...ORIGIN, 'content-type': 'text/plain' }, body: '{}' },
        ],
      ],
    ];

    it.each(cases)('puts them on %s', async (_name, status, request) => {
      const todo = await createTodo(api());
      const response = await api().fetch(...request(todo.id));
      expect(response.status).toBe(status);
      expectCors(response);
    });
  });

  describe('preflight', () => {
    const api = useService(host);

    const preflight = (path: string, method: string) =>
      api().fetch(path, {
        method: 'OPTIONS',
        headers: {
          ...ORIGIN,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type',
        },
      });

    const expectPreflight = (response: Response, methods: string) => {
      expect(response.status).toBe(204);
      expect(Object.fromEntries(response.headers)).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': methods,
        'access-control-allow-headers': 'Content-Type',
        'access-control-max-age': '86400',
      });
    };

    it('answers OPTIONS /api/todos with 204 and the collection methods', async () => {
      expectPreflight(await preflight(api().paths.todos, 'POST'), 'GET, POST, OPTIONS');
    });

    it('answers OPTIONS /api/todos/:id with 204 and the item methods', async () => {
      const todo = await createTodo(api());
      expectPreflight(
        await preflight(`${api().paths.todos}/${todo.id}`, 'PUT'),
        'PUT, DELETE, OPTIONS',
      );
    });

    it.each([
      ['an id that names no item', MISSING_ID],
      ['an id that is not a UUID', 'not-a-uuid'],
    ])('answers a preflight for %s with 204', async (_name, id) => {
      const response = await preflight(`${api().paths.todos}/${id}`, 'DELETE');
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-methods')).toBe('PUT, DELETE, OPTIONS');
    });

    it('answers a preflight with no body', async () => {
      expect(await (await preflight(api().paths.todos, 'POST')).text()).toBe('');
    });

    it('never allows credentials in a preflight', async () => {
      const response = await preflight(api().paths.todos, 'POST');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    });
  });
}
