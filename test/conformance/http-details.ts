import { describe, expect, it } from 'vitest';
import { createTodo, MISSING_ID, onList, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

/** Headers both answers must share; Date and connection handling are the transport's. */
function comparableHeaders(response: Response): [string, string][] {
  // A request id names one request: two requests never share it.
  const transport = new Set([
    'date',
    'connection',
    'keep-alive',
    'transfer-encoding',
    'x-request-id',
  ]);
  return [...response.headers].filter(([name]) => !transport.has(name));
}

/** docs/api.md, HTTP details and Conditional requests. */
export function httpDetailsSuite(host: TestHost) {
  describe('content type and caching', () => {
    const api = useService(host);

    it.each(['/api/todos', '/api/todos/'])('answers GET %s as JSON in UTF-8', async (path) => {
      const response = await api().fetch(onList(api(), path));
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    });

    it('answers a create as JSON in UTF-8', async () => {
      const response = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    });

    it.each([
      ['the list', '/api/todos'],
      ['an error', `/api/todos/${MISSING_ID}`],
    ])('marks %s Cache-Control: no-store', async (_name, path) => {
      expect((await api().fetch(onList(api(), path))).headers.get('cache-control')).toBe(
        'no-store',
      );
    });

    it('marks one item Cache-Control: no-store', async () => {
      const todo = await createTodo(api());
      expect(
        (await api().fetch(`${api().paths.todos}/${todo.id}`)).headers.get('cache-control'),
      ).toBe('no-store');
    });
  });

  describe('HEAD', () => {
    const api = useService(host);

    it.each(['/api/todos', '/hello', '/'])(
      'answers HEAD %s like GET, without a body',
      async (written) => {
        const path = onList(api(), written);
        await createTodo(api());
        const get = await api().fetch(path);
        await get.arrayBuffer();
        const head = await api().fetch(path, { method: 'HEAD' });
        expect(head.status).toBe(get.status);
        expect(comparableHeaders(head).filter(([name]) => name !== 'content-length')).toEqual(
          comparableHeaders(get).filter(([name]) => name !== 'content-length'),
        );
        expect(await head.text()).toBe('');
      },
    );

    it.each(['/api/todos', '/api/todos/:id', '/hello', '/'])(
      'gives HEAD %s the Content-Length of the GET body',
      async (route) => {
        const path = onList(api(), route).replace(':id', (await createTodo(api())).id);
        const getBytes = (await (await api().fetch(path)).arrayBuffer()).byteLength;
        const head = await api().fetch(path, { method: 'HEAD' });
        expect(head.headers.get('content-length')).toBe(String(getBytes));
      },
    );

    it('answers HEAD of one item with its ETag and no body', async () => {
      const todo = await createTodo(api());
      const get = await api().fetch(`${api().paths.todos}/${todo.id}`);
      const head = await api().fetch(`${api().paths.todos}/${todo.id}`, { method: 'HEAD' });
      expect([head.status, head.headers.get('etag'), await head.text()]).toEqual([
        200,
        get.headers.get('etag'),
        '',
      ]);
    });

    it('answers HEAD of a missing item with 404 and no body', async () => {
      const head = await api().fetch(`${api().paths.todos}/${MISSING_ID}`, { method: 'HEAD' });
      expect([head.status, await head.text()]).toEqual([404, '']);
    });
  });

  describe('ETag and If-None-Match', () => {
    const api = useService(host);

    it('puts a quoted ETag on the list', async () => {
      expect((await api().fetch(api().paths.todos)).headers.get('etag')).toMatch(/^"[^"]+"$/);
    });

    it('answers 304 with no body when the list ETag matches', async () => {
      await createTodo(api());
      const { etag } = await listState(api());
      const response = await api().fetch(api().paths.todos, { headers: { 'if-none-match': etag } });
      expect([response.status, await response.text(), response.headers.get('etag')]).toEqual([
        304,
        '',
        etag,
      ]);
    });

    it('answers 200 with a new ETag once the list has changed', async () => {
      const { etag } = await listState(api());
      await createTodo(api());
      const response = await api().fetch(api().paths.todos, { headers: { 'if-none-match': etag } });
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).not.toBe(etag);
    });

    it('gives the list a new ETag after an update', async () => {
      const todo = await createTodo(api());
      const { etag } = await listState(api());
      await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { title: 'b', completed: true }),
      );
      expect((await listState(api())).etag).not.toBe(etag);
    });

    it('gives the list a new ETag after a delete', async () => {
      const todo = await createTodo(api());
      const { etag } = await listState(api());
      await api().fetch(`${api().paths.todos}/${todo.id}`, { method: 'DELETE' });
      expect((await listState(api())).etag).not.toBe(etag);
    });

    it('gives the list, after a change, the ETag that change answered with', async () => {
      const response = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      expect((await listState(api())).etag).toBe(response.headers.get('etag'));
    });

    it('keeps the list ETag when a request fails', async () => {
      const { etag } = await listState(api());
      await api().fetch(api().paths.todos, sendJson('POST', { title: '' }));
      expect((await listState(api())).etag).toBe(etag);
    });

    it('answers 304 for one item whose ETag matches', async () => {
      const todo = await createTodo(api());
      const etag = (await api().fetch(`${api().paths.todos}/${todo.id}`)).headers.get('etag')!;
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, {
        headers: { 'if-none-match': etag },
      });
      expect([response.status, response.headers.get('etag')]).toEqual([304, etag]);
    });

    it.each([
      ['*', () => '*'],
      ['a weak form of the tag', (etag: string) => `W/${etag}`],
      ['a list holding the tag', (etag: string) => `"other", ${etag}`],
    ])('answers 304 for If-None-Match: %s', async (_name, header) => {
      const todo = await createTodo(api());
      const etag = (await api().fetch(`${api().paths.todos}/${todo.id}`)).headers.get('etag')!;
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, {
        headers: { 'if-none-match': header(etag) },
      });
      expect(response.status).toBe(304);
    });

    it('answers 200 when If-None-Match names another version', async () => {
      const todo = await createTodo(api());
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, {
        headers: { 'if-none-match': '"old"' },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('If-Match', () => {
    const api = useService(host);

    const put = (id: string, headers: Record<string, string>) =>
      api().fetch(
        `${api().paths.todos}/${id}`,
        sendJson('PUT', { title: 'new', completed: true }, headers),
      );

    it('applies a PUT whose If-Match is the current ETag', async () => {
      const created = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      const { id } = await created.json();
      expect((await put(id, { 'if-match': created.headers.get('etag')! })).status).toBe(200);
    });

    it('applies a PUT whose If-Match lists the current ETag among others', async () => {
      const created = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      const { id } = await created.json();
      const response = await put(id, { 'if-match': `"other", ${created.headers.get('etag')}` });
      expect(response.status).toBe(200);
    });

    it('answers a PUT with the new ETag, which the next If-Match can name', async () => {
      const todo = await createTodo(api());
      const etag = (await put(todo.id, {})).headers.get('etag')!;
      expect((await api().fetch(`${api().paths.todos}/${todo.id}`)).headers.get('etag')).toBe(etag);
      expect((await put(todo.id, { 'if-match': etag })).status).toBe(200);
    });

    it('checks If-Match again once a slow body has arrived', async () => {
      const created = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      const { id } = await created.json();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          // A first byte (JSON whitespace) makes an HTTP client send the request now.
          controller.enqueue(new TextEncoder().encode(' '));
          await released;
          controller.enqueue(new TextEncoder().encode('{"title":"slow","completed":true}'));
          controller.close();
        },
      });
      const slow = api().fetch(`${api().paths.todos}/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'if-match': created.headers.get('etag')! },
        body,
        duplex: 'half',
      } as RequestInit);
      // Let the slow request pass its first If-Match check before the item changes.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await put(id, {})).status).toBe(200);
      release();
      expect((await slow).status).toBe(412);
      expect((await listState(api())).todos[0]?.title).toBe('new');
    });

    it('applies a PUT with If-Match: *', async () => {
      const todo = await createTodo(api());
      expect((await put(todo.id, { 'if-match': '*' })).status).toBe(200);
    });

    it('refuses a PUT whose If-Match is stale with 412 and changes nothing', async () => {
      const created = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      const { id } = await created.json();
      const staleTag = created.headers.get('etag')!;
      await put(id, {});
      const before = await listState(api());
      expect((await put(id, { 'if-match': staleTag })).status).toBe(412);
      expect(await listState(api())).toEqual(before);
    });

    it('refuses a weak tag in If-Match, which never matches', async () => {
      const created = await api().fetch(api().paths.todos, sendJson('POST', { title: 'a' }));
      const { id } = await created.json();
      expect((await put(id, { 'if-match': `W/${created.headers.get('etag')}` })).status).toBe(412);
    });

    it('refuses a DELETE whose If-Match is stale with 412 and keeps the item', async () => {
      const todo = await createTodo(api());
      const before = await listState(api());
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, {
        method: 'DELETE',
        headers: { 'if-match': '"stale"' },
      });
      expect(response.status).toBe(412);
      expect(await listState(api())).toEqual(before);
    });

    it('applies a DELETE whose If-Match is the current ETag', async () => {
      const todo = await createTodo(api());
      const etag = (await api().fetch(`${api().paths.todos}/${todo.id}`)).headers.get('etag')!;
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, {
        method: 'DELETE',
        headers: { 'if-match': etag },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('trailing slash', () => {
    const api = useService(host);

    it('creates through /api/todos/', async () => {
      expect(
        (await api().fetch(`${api().paths.todos}/`, sendJson('POST', { title: 'a' }))).status,
      ).toBe(201);
    });

    it('serves one item at /api/todos/:id/', async () => {
      const todo = await createTodo(api());
      expect(await (await api().fetch(`${api().paths.todos}/${todo.id}/`)).json()).toEqual(todo);
    });
  });
}
