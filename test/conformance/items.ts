import { describe, expect, it } from 'vitest';
import { createTodo, MISSING_ID, sendJson, listState, UUID } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

/** docs/api.md, Routes and Items. */
export function itemsSuite(host: TestHost) {
  describe('items', () => {
    const api = useService(host);

    it('starts with an empty list', async () => {
      expect((await listState(api())).todos).toEqual([]);
    });

    it('creates an item with exactly id, title and completed', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', { title: 'Buy milk', completed: true }),
      );
      expect(response.status).toBe(201);
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual(['completed', 'id', 'title']);
      expect(body).toMatchObject({ title: 'Buy milk', completed: true });
    });

    it('gives a new item a lowercase RFC 4122 version 4 UUID', async () => {
      const todo = await createTodo(api());
      expect(todo.id).toMatch(UUID);
    });

    it('gives every item its own id', async () => {
      const first = await createTodo(api());
      const second = await createTodo(api());
      expect(first.id).not.toBe(second.id);
    });

    it('defaults completed to false on create', async () => {
      expect((await createTodo(api(), { title: 'Walk' })).completed).toBe(false);
    });

    it('stores the title exactly as sent, spaces and all', async () => {
      const title = '  Ünïcödé 🐈 title\twith tab  ';
      await createTodo(api(), { title });
      expect((await listState(api())).todos[0]?.title).toBe(title);
    });

    it('answers a create with a Location of the shape /api/todos/{id}', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', { title: 'Buy milk' }),
      );
      const todo = await response.json();
      expect(response.headers.get('location')).toBe(`${api().paths.todos}/${todo.id}`);
    });

    it('serves the created item at its Location', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', { title: 'Buy milk' }),
      );
      const created = await response.json();
      const fetched = await api().fetch(response.headers.get('location')!);
      expect(fetched.status).toBe(200);
      expect(await fetched.json()).toEqual(created);
    });

    it('lists items in creation order, oldest first', async () => {
      const titles = ['one', 'two', 'three', 'four'];
      for (const title of titles) await createTodo(api(), { title });
      expect((await listState(api())).todos.map((todo) => todo.title)).toEqual(titles);
    });

    it('lists every item with exactly id, title and completed', async () => {
      const created = await createTodo(api(), { title: 'a', completed: true });
      expect((await listState(api())).todos).toEqual([created]);
    });

    it('replaces title and completed on PUT and answers 200 with the updated item', async () => {
      const todo = await createTodo(api());
      const response = await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { title: 'Buy oat milk', completed: true }),
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        id: todo.id,
        title: 'Buy oat milk',
        completed: true,
      });
    });

    it('keeps the place of an updated item in the list', async () => {
      const [first, second, third] = [
        await createTodo(api()),
        await createTodo(api()),
        await createTodo(api()),
      ];
      await api().fetch(
        `${api().paths.todos}/${second!.id}`,
        sendJson('PUT', { title: 'changed', completed: true }),
      );
      const ids = (await listState(api())).todos.map((todo) => todo.id);
      expect(ids).toEqual([first!.id, second!.id, third!.id]);
    });

    it('stores what PUT sent, as GET shows', async () => {
      const todo = await createTodo(api());
      await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { title: 'new', completed: true }),
      );
      expect(await (await api().fetch(`${api().paths.todos}/${todo.id}`)).json()).toEqual({
        id: todo.id,
        title: 'new',
        completed: true,
      });
    });

    it('shows GET the item as PUT left it, with its new ETag, though GET read it before', async () => {
      const todo = await createTodo(api());
      await api().fetch(`${api().paths.todos}/${todo.id}`);
      const put = await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { title: 'new', completed: true }),
      );
      const after = await api().fetch(`${api().paths.todos}/${todo.id}`);
      expect([after.headers.get('etag'), await after.json()]).toEqual([
        put.headers.get('etag'),
        { id: todo.id, title: 'new', completed: true },
      ]);
    });

    it('accepts a PUT body that repeats the id of the path', async () => {
      const todo = await createTodo(api());
      const response = await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { id: todo.id, title: 'again', completed: false }),
      );
      expect(response.status).toBe(200);
    });

    it('answers a DELETE with 200 and the item as it was', async () => {
      const todo = await createTodo(api(), { title: 'gone soon', completed: true });
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, { method: 'DELETE' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(todo);
    });

    it('removes a deleted item from the list', async () => {
      const kept = await createTodo(api(), { title: 'kept' });
      const gone = await createTodo(api(), { title: 'gone' });
      await api().fetch(`${api().paths.todos}/${gone.id}`, { method: 'DELETE' });
      expect((await listState(api())).todos).toEqual([kept]);
    });

    it('answers 404 for a deleted item', async () => {
      const todo = await createTodo(api());
      await api().fetch(`${api().paths.todos}/${todo.id}`, { method: 'DELETE' });
      expect((await api().fetch(`${api().paths.todos}/${todo.id}`)).status).toBe(404);
    });

    it('answers GET of one item with 200 and the item', async () => {
      const todo = await createTodo(api());
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(todo);
    });

    it.each([
      ['GET', undefined],
      ['PUT', sendJson('PUT', { title: 'x', completed: false })],
      ['DELETE', { method: 'DELETE' }],
    ])('answers %s of an id that names no item with 404', async (_method, init) => {
      await createTodo(api());
      const response = await api().fetch(`${api().paths.todos}/${MISSING_ID}`, init);
      expect(response.status).toBe(404);
    });

    it.each([
      ['GET', undefined],
      ['PUT', sendJson('PUT', { title: 'x', completed: false })],
      ['DELETE', { method: 'DELETE' }],
    ])('answers %s of an id that is not a UUID with 404', async (_method, init) => {
      expect((await api().fetch(`${api().paths.todos}/not-a-uuid`, init)).status).toBe(404);
    });

    it('matches ids exactly: the uppercase form of an id names no item', async () => {
      const todo = await createTodo(api());
      expect((await api().fetch(`${api().paths.todos}/${todo.id.toUpperCase()}`)).status).toBe(404);
    });
  });
}
