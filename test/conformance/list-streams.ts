import { describe, expect, it } from 'vitest';
import { LISTS_PATH, listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { createTodo, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import { createList, NEVER_MADE_ID } from '../support/lists.ts';
import { firstEvent, opened } from '../support/sse.ts';

const ORIGIN = { origin: 'https://elsewhere.example' };

/** The service as a client of the list `id` sees it. */
const onListOf = (service: TestService, id: string): TestService => ({
  ...service,
  paths: namedListPaths(id),
});

/** docs/api.md, Lists: what a list's stream tells of it, lists kept apart, CORS. */
export function listStreamsSuite(host: TestHost) {
  describe('a named list’s events', () => {
    const api = useService(host);

    it('tells a rename as a list-renamed event, with an id and the list as data', async () => {
      const { id, viewId } = await createList(api(), 'Old');
      const stream = await opened(api(), { path: namedListPaths(id).sse });
      await firstEvent(stream);
      const response = await api().fetch(listPathOf(id), sendJson('PUT', { title: 'New' }));
      const event = await stream.nextEvent();
      expect(event).toEqual({
        id: response.headers.get('etag')!.slice(1, -1),
        event: 'list-renamed',
        data: { id, title: 'New', viewId },
      });
    });

    it('replays a rename to a client that resumes after the event before it', async () => {
      const { id, viewId } = await createList(api(), 'Old');
      const before = await listState(onListOf(api(), id));
      await api().fetch(listPathOf(id), sendJson('PUT', { title: 'New' }));
      const stream = await opened(api(), {
        path: `${namedListPaths(id).sse}?lastEventId=${before.etag.slice(1, -1)}`,
      });
      await stream.nextBlock();
      expect(await stream.nextEvent()).toMatchObject({
        event: 'list-renamed',
        data: { id, title: 'New', viewId },
      });
    });

    it('ends every stream of a deleted list after a list-deleted event with no id', async () => {
      const { id, viewId } = await createList(api(), 'Gone');
      const stream = await opened(api(), { path: namedListPaths(id).sse });
      await firstEvent(stream);
      await api().fetch(listPathOf(id), { method: 'DELETE' });
      const last = await stream.nextBlock();
      const end = await stream.nextBlock();
      expect([last, end]).toEqual([
        {
          id: undefined,
          event: 'list-deleted',
          data: JSON.stringify({ id, title: 'Gone', viewId }),
        },
        undefined,
      ]);
    });

    it('keeps no stream of a deleted list open', async () => {
      const { id } = await createList(api());
      const stream = await opened(api(), { path: namedListPaths(id).sse });
      await firstEvent(stream);
      await api().fetch(listPathOf(id), { method: 'DELETE' });
      await expect.poll(async () => (await api().streamStats(id)).openStreams).toBe(0);
    });
  });

  describe('two lists', () => {
    const api = useService(host);

    it('hold their own items', async () => {
      const [a, b] = [await createList(api(), 'a'), await createList(api(), 'b')];
      const todo = await createTodo(onListOf(api(), a.id), { title: 'only in a' });
      expect([
        (await listState(onListOf(api(), a.id))).todos,
        (await listState(onListOf(api(), b.id))).todos,
        (await listState(api())).todos,
      ]).toEqual([[todo], [], []]);
    });

    it("never send one list's changes on the other's stream", async () => {
      const [a, b] = [await createList(api()), await createList(api())];
      const stream = await opened(api(), { path: namedListPaths(b.id).sse });
      await firstEvent(stream);
      await createTodo(onListOf(api(), a.id), { title: 'in a' });
      await createTodo(api(), { title: 'in the default list' });
      const marker = await createTodo(onListOf(api(), b.id), { title: 'in b' });
      expect(await stream.nextEvent()).toMatchObject({ event: 'created', data: marker });
    });

    it('leave the default list and its ETag as they were', async () => {
      const before = await listState(api());
      const { id } = await createList(api());
      await createTodo(onListOf(api(), id));
      expect(await listState(api())).toEqual(before);
    });

    it('give each item the Location of its own list', async () => {
      const { id } = await createList(api());
      const response = await api().fetch(
        namedListPaths(id).todos,
        sendJson('POST', { title: 'a' }),
      );
      const todo = await response.json();
      expect(response.headers.get('location')).toBe(`${namedListPaths(id).todos}/${todo.id}`);
    });
  });

  describe('CORS on the list routes', () => {
    const api = useService(host);

    const preflight = (path: string) =>
      api().fetch(path, {
        method: 'OPTIONS',
        headers: { ...ORIGIN, 'access-control-request-method': 'PUT' },
      });

    it.each([
      ['POST /api/lists', () => [LISTS_PATH, { method: 'POST', headers: ORIGIN }]],
      ['GET /api/lists', () => [LISTS_PATH, { headers: ORIGIN }]],
      ['a 404', () => [listPathOf(NEVER_MADE_ID), { headers: ORIGIN }]],
    ] as const)('allows any origin on %s', async (_name, request) => {
      const response = await api().fetch(...(request() as [string, RequestInit]));
      await response.body?.cancel();
      expect([
        response.headers.get('access-control-allow-origin'),
        response.headers.get('access-control-expose-headers'),
      ]).toEqual(['*', 'Location, ETag']);
    });

    it('answers OPTIONS /api/lists with 204 and POST, OPTIONS', async () => {
      const response = await preflight(LISTS_PATH);
      expect([response.status, response.headers.get('access-control-allow-methods')]).toEqual([
        204,
        'POST, OPTIONS',
      ]);
    });

    it.each([
      ['a list', async (service: TestService) => (await createList(service)).id],
      ['an id that names no list', async () => NEVER_MADE_ID],
    ])('answers OPTIONS for %s with 204 and the methods of a list', async (_name, idOf) => {
      const response = await preflight(listPathOf(await idOf(api())));
      expect([
        response.status,
        response.headers.get('access-control-allow-methods'),
        response.headers.get('access-control-allow-headers'),
        response.headers.get('access-control-max-age'),
      ]).toEqual([204, 'GET, PUT, DELETE, OPTIONS', 'Content-Type', '86400']);
    });
  });
}
