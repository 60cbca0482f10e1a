import { describe, expect, it } from 'vitest';
import { createTodo, expectProblem, MISSING_ID, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { firstEvent, opened, sequenceOf, unquoted } from '../support/sse.ts';

const textBody: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'text/plain' },
  body: '{}',
};
const oversized = sendJson('POST', 'x'.repeat(20000));
const putTitleOnly = sendJson('PUT', { title: 'x' });
const fullPut = sendJson('PUT', { title: 'x', completed: true });
const stalePut = sendJson('PUT', { title: 'x', completed: true }, { 'if-match': '"old"' });
const staleDelete: RequestInit = { method: 'DELETE', headers: { 'if-match': '"old"' } };
const noSuchItem = { detail: 'No to-do has this id.' };
const titleError = { errors: [{ pointer: '/title', detail: expect.any(String) }] };
const completedError = { errors: [{ pointer: '/completed', detail: expect.any(String) }] };

/** docs/api.md, Live updates: `GET /api/sse`, its answer, snapshot and changes. */
export function eventsSuite(host: TestHost) {
  describe('GET /api/sse: the response', () => {
    const api = useService(host);

    it('answers 200 text/event-stream', async () => {
      const response = await api().fetch(api().paths.sse);
      await response.body!.cancel();
      expect([response.status, response.headers.get('content-type')]).toEqual([
        200,
        'text/event-stream',
      ]);
    });

    it('asks caches and proxies not to hold it back', async () => {
      const response = await api().fetch(api().paths.sse);
      await response.body!.cancel();
      expect([
        response.headers.get('cache-control'),
        response.headers.get('x-accel-buffering'),
      ]).toEqual(['no-cache', 'no']);
    });

    it('carries the CORS headers of the API', async () => {
      const response = await api().fetch(api().paths.sse, {
        headers: { origin: 'http://elsewhere' },
      });
      await response.body!.cancel();
      expect([
        response.headers.get('access-control-allow-origin'),
        response.headers.get('access-control-expose-headers'),
        response.headers.get('access-control-allow-credentials'),
      ]).toEqual(['*', 'Location, ETag', null]);
    });

    it('opens with retry: 3000', async () => {
      const stream = await opened(api());
      expect(await stream.nextBlock()).toEqual({ retry: 3000 });
    });

    it('answers a preflight for the stream with 204', async () => {
      const response = await api().fetch(api().paths.sse, { method: 'OPTIONS' });
      expect([
        response.status,
        response.headers.get('access-control-allow-origin'),
        response.headers.get('access-control-allow-methods'),
      ]).toEqual([204, '*', 'GET, OPTIONS']);
    });

    it.each(['HEAD', 'POST', 'DELETE'])('refuses %s with 405 and Allow', async (method) => {
      const response = await api().fetch(api().paths.sse, { method });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, OPTIONS']);
    });
  });

  describe('GET /api/sse: snapshot and changes', () => {
    const api = useService(host);

    it('sends a new client a snapshot of the list as GET /api/todos gives it', async () => {
      await createTodo(api(), { title: 'a' });
      await createTodo(api(), { title: 'b', completed: true });
      const { todos } = await listState(api());
      const stream = await opened(api());
      expect(await firstEvent(stream)).toMatchObject({ event: 'snapshot', data: todos });
    });

    it('sends an empty list as the snapshot when there are no items', async () => {
      const stream = await opened(api());
      expect(await firstEvent(stream)).toMatchObject({ event: 'snapshot', data: [] });
    });

    it('gives the snapshot the id the list has as its ETag', async () => {
      await createTodo(api());
      const { etag } = await listState(api());
      const stream = await opened(api());
      expect((await firstEvent(stream)).id).toBe(unquoted(etag));
    });

    it('sends created, updated and deleted, in order, with the item', async () => {
      const stream = await opened(api());
      await firstEvent(stream);
      const todo = await createTodo(api(), { title: 'a' });
      await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', { title: 'b', completed: true }),
      );
      await api().fetch(`${api().paths.todos}/${todo.id}`, { method: 'DELETE' });
      const events = [await stream.nextEvent(), await stream.nextEvent(), await stream.nextEvent()];
      expect(events.map(({ event, data }) => [event, data])).toEqual([
        ['created', { id: todo.id, title: 'a', completed: false }],
        ['updated', { id: todo.id, title: 'b', completed: true }],
        ['deleted', { id: todo.id, title: 'b', completed: true }],
      ]);
    });

    it('sends every change to every open client', async () => {
      const streams = [await opened(api()), await opened(api()), await opened(api())];
      for (const stream of streams) await firstEvent(stream);
      const todo = await createTodo(api());
      const received = await Promise.all(streams.map((stream) => stream.nextEvent()));
      expect(received.map(({ data }) => data)).toEqual([todo, todo, todo]);
    });

    it("gives each change's event the id the list then has as its ETag", async () => {
      const stream = await opened(api());
      await firstEvent(stream);
      await createTodo(api());
      const event = await stream.nextEvent();
      expect(event.id).toBe(unquoted((await listState(api())).etag));
    });

    it('gives events increasing ids', async () => {
      const stream = await opened(api());
      const ids = [(await firstEvent(stream)).id];
      for (let i = 0; i < 12; i += 1) await createTodo(api());
      for (let i = 0; i < 12; i += 1) ids.push((await stream.nextEvent()).id);
      const sequence = ids.map(sequenceOf);
      expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
    });

    // docs/api.md, Request bodies and Errors: each refusal, what its problem says, and that it
    // changes nothing and announces nothing.
    const refusals: [string, (id: string) => [string, RequestInit], number, object][] = [
      ['an empty title', () => ['', sendJson('POST', { title: '' })], 400, titleError],
      ['a body that is not JSON', () => ['', sendJson('POST', '{')], 400, { detail: /JSON/ }],
      ['a body not sent as JSON', () => ['', textBody], 415, { detail: /application\/json/ }],
      ['a body over the limit', () => ['', oversized], 413, { detail: /16384/ }],
      ['a PUT without completed', (id) => [`/${id}`, putTitleOnly], 400, completedError],
      ['a PUT with a stale If-Match', (id) => [`/${id}`, stalePut], 412, { detail: /If-Match/ }],
      ['a PUT of a missing item', () => [`/${MISSING_ID}`, fullPut], 404, noSuchItem],
      [
        'a DELETE of a missing item',
        () => [`/${MISSING_ID}`, { method: 'DELETE' }],
        404,
        noSuchItem,
      ],
      [
        'a DELETE with a stale If-Match',
        (id) => [`/${id}`, staleDelete],
        412,
        { detail: /If-Match/ },
      ],
    ];

    it.each(refusals)(
      'refuses %s clearly, changing nothing and sending no event',
      async (_, request, status, problem) => {
        const todo = await createTodo(api());
        const before = await listState(api());
        const stream = await opened(api());
        await firstEvent(stream);
        const [path, init] = request(todo.id);
        expect(
          await expectProblem(await api().fetch(`${api().paths.todos}${path}`, init), status),
        ).toMatchObject(problem);
        expect(await listState(api())).toEqual(before);
        const marker = await createTodo(api(), { title: 'the next change' });
        expect(await stream.nextEvent()).toMatchObject({ event: 'created', data: marker });
      },
    );

    it('lets a client that read the list subscribe from its ETag without missing a change', async () => {
      await createTodo(api(), { title: 'before' });
      const { etag } = await listState(api());
      const between = await createTodo(api(), { title: 'between' });
      const stream = await opened(api(), {
        path: `${api().paths.sse}?lastEventId=${unquoted(etag)}`,
      });
      expect(await firstEvent(stream)).toMatchObject({ event: 'created', data: between });
    });
  });
}
