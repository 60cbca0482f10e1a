import { describe, expect, it, onTestFinished } from 'vitest';
import { createTodo, MISSING_ID, sendJson, snapshot } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import {
  collectEvents,
  eventSourceOn,
  openStream,
  sequenceOf,
  type StreamReader,
} from '../support/sse.ts';

/** Streams opened in a test are closed after it, whatever happened. */
async function opened(
  service: TestService,
  options?: Parameters<typeof openStream>[1],
): Promise<StreamReader> {
  const stream = await openStream(service, options);
  onTestFinished(() => stream.close());
  return stream;
}

/** The stream's first event, after its `retry` block. */
async function firstEvent(stream: StreamReader) {
  await stream.nextBlock();
  return stream.nextEvent();
}

const unquoted = (etag: string) => etag.slice(1, -1);

/** CONTRACT.md, Events: `GET /api/sse`. */
export function eventsSuite(host: TestHost) {
  describe('GET /api/sse: the response', () => {
    const api = useService(host);

    it('answers 200 text/event-stream', async () => {
      const response = await api().fetch('/api/sse');
      await response.body!.cancel();
      expect([response.status, response.headers.get('content-type')]).toEqual([
        200,
        'text/event-stream',
      ]);
    });

    it('asks caches and proxies not to hold it back', async () => {
      const response = await api().fetch('/api/sse');
      await response.body!.cancel();
      expect([
        response.headers.get('cache-control'),
        response.headers.get('x-accel-buffering'),
      ]).toEqual(['no-cache', 'no']);
    });

    it('carries the CORS headers of the API', async () => {
      const response = await api().fetch('/api/sse', { headers: { origin: 'http://elsewhere' } });
      await response.body!.cancel();
      expect([
        response.headers.get('access-control-allow-origin'),
        response.headers.get('access-control-expose-headers'),
        response.headers.get('access-control-allow-credentials'),
      ]).toEqual(['*', 'Location, ETag', null]);
    });

    it('opens with retry: 3000', async () => {
      const stream = await opened(api());
      expect(await stream.nextBlock()).toEqual({ retry: '3000' });
    });

    it('answers a preflight for the stream with 204', async () => {
      const response = await api().fetch('/api/sse', { method: 'OPTIONS' });
      expect([
        response.status,
        response.headers.get('access-control-allow-origin'),
        response.headers.get('access-control-allow-methods'),
      ]).toEqual([204, '*', 'GET, OPTIONS']);
    });

    it.each(['HEAD', 'POST', 'DELETE'])('refuses %s with 405 and Allow', async (method) => {
      const response = await api().fetch('/api/sse', { method });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, OPTIONS']);
    });
  });

  describe('GET /api/sse: snapshot and changes', () => {
    const api = useService(host);

    it('sends a new client a snapshot of the list as GET /api/todos gives it', async () => {
      await createTodo(api(), { title: 'a' });
      await createTodo(api(), { title: 'b', completed: true });
      const { todos } = await snapshot(api());
      const stream = await opened(api());
      expect(await firstEvent(stream)).toMatchObject({ event: 'snapshot', data: todos });
    });

    it('sends an empty list as the snapshot when there are no items', async () => {
      const stream = await opened(api());
      expect(await firstEvent(stream)).toMatchObject({ event: 'snapshot', data: [] });
    });

    it('gives the snapshot the id the list has as its ETag', async () => {
      await createTodo(api());
      const { etag } = await snapshot(api());
      const stream = await opened(api());
      expect((await firstEvent(stream)).id).toBe(unquoted(etag));
    });

    it('sends created, updated and deleted, in order, with the item', async () => {
      const stream = await opened(api());
      await firstEvent(stream);
      const todo = await createTodo(api(), { title: 'a' });
      await api().fetch(`/api/todos/${todo.id}`, sendJson('PUT', { title: 'b', completed: true }));
      await api().fetch(`/api/todos/${todo.id}`, { method: 'DELETE' });
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
      expect(event.id).toBe(unquoted((await snapshot(api())).etag));
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

    it('sends no event for a refused request', async () => {
      const todo = await createTodo(api());
      const stream = await opened(api());
      await firstEvent(stream);
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
      for (const [path, init] of refused) expect((await api().fetch(path, init)).ok).toBe(false);
      const marker = await createTodo(api(), { title: 'the next change' });
      expect(await stream.nextEvent()).toMatchObject({ event: 'created', data: marker });
    });

    it('lets a client that read the list subscribe from its ETag without missing a change', async () => {
      await createTodo(api(), { title: 'before' });
      const { etag } = await snapshot(api());
      const between = await createTodo(api(), { title: 'between' });
      const stream = await opened(api(), { path: `/api/sse?lastEventId=${unquoted(etag)}` });
      expect(await firstEvent(stream)).toMatchObject({ event: 'created', data: between });
    });
  });

  describe('GET /api/sse: resume', () => {
    const api = useService(host, { sse: { replayEvents: 3 } });

    /** Three changes after the id a client last saw. */
    const missedThree = async () => {
      const stream = await opened(api());
      const { id } = await firstEvent(stream);
      stream.close();
      const todos = [await createTodo(api()), await createTodo(api()), await createTodo(api())];
      return { lastEventId: id, todos };
    };

    it('replays exactly the missed events, in order, for a Last-Event-ID header', async () => {
      const { lastEventId, todos } = await missedThree();
      const stream = await opened(api(), { headers: { 'last-event-id': lastEventId } });
      const events = [await firstEvent(stream), await stream.nextEvent(), await stream.nextEvent()];
      expect(events.map(({ event, data }) => [event, data])).toEqual(
        todos.map((todo) => ['created', todo]),
      );
    });

    it('replays the missed events for ?lastEventId=', async () => {
      const { lastEventId, todos } = await missedThree();
      const stream = await opened(api(), { path: `/api/sse?lastEventId=${lastEventId}` });
      expect(await firstEvent(stream)).toMatchObject({ event: 'created', data: todos[0] });
    });

    it('prefers the Last-Event-ID header to the query, as a reconnecting EventSource sends both', async () => {
      const { lastEventId, todos } = await missedThree();
      const stream = await opened(api(), {
        path: '/api/sse?lastEventId=garbage',
        headers: { 'last-event-id': lastEventId },
      });
      expect(await firstEvent(stream)).toMatchObject({ event: 'created', data: todos[0] });
    });

    it('sends nothing but new changes to a client that missed nothing', async () => {
      const { etag } = await snapshot(api());
      const stream = await opened(api(), { headers: { 'last-event-id': unquoted(etag) } });
      const todo = await createTodo(api());
      expect(await firstEvent(stream)).toMatchObject({ event: 'created', data: todo });
    });

    it('goes on with live changes after the replay', async () => {
      const { lastEventId } = await missedThree();
      const stream = await opened(api(), { headers: { 'last-event-id': lastEventId } });
      for (let i = 0; i < 3; i += 1) await stream.nextEvent();
      const todo = await createTodo(api(), { title: 'live' });
      expect(await stream.nextEvent()).toMatchObject({ event: 'created', data: todo });
    });

    it('sends a snapshot when the missed events have left the replay buffer', async () => {
      const { lastEventId } = await missedThree();
      await createTodo(api());
      const stream = await opened(api(), { headers: { 'last-event-id': lastEventId } });
      const { todos } = await snapshot(api());
      expect(await firstEvent(stream)).toMatchObject({ event: 'snapshot', data: todos });
    });

    it('sends a snapshot for an id from an earlier run of the server', async () => {
      const earlier = await host.start();
      const stream = await opened(earlier);
      const { id: foreignId } = await firstEvent(stream);
      await earlier.close();
      await createTodo(api());
      const { todos } = await snapshot(api());
      const resumed = await opened(api(), { headers: { 'last-event-id': foreignId } });
      expect(await firstEvent(resumed)).toMatchObject({ event: 'snapshot', data: todos });
    });

    it.each(['garbage', '-1', '1e3', ' ', 'x'.repeat(300)])(
      'sends a snapshot for a Last-Event-ID this server never sent (%s)',
      async (lastEventId) => {
        await createTodo(api());
        const stream = await opened(api(), { headers: { 'last-event-id': lastEventId } });
        expect((await firstEvent(stream)).event).toBe('snapshot');
      },
    );

    it('sends a snapshot for an id of this run that lies in the future', async () => {
      const { etag } = await snapshot(api());
      const future = unquoted(etag).replace(/\d+$/, '99');
      const stream = await opened(api(), { headers: { 'last-event-id': future } });
      expect((await firstEvent(stream)).event).toBe('snapshot');
    });
  });

  describe('GET /api/sse: EventSource clients', () => {
    const api = useService(host);

    it('gives an EventSource the snapshot, then every change', async () => {
      const source = eventSourceOn(api());
      onTestFinished(() => source.close());
      const seen = collectEvents(source, ['snapshot', 'created', 'updated', 'deleted']);
      await expect.poll(() => seen.length).toBe(1);
      const todo = await createTodo(api(), { title: 'a' });
      await api().fetch(`/api/todos/${todo.id}`, { method: 'DELETE' });
      await expect
        .poll(() => seen.map(({ event }) => event))
        .toEqual(['snapshot', 'created', 'deleted']);
    });

    it('lets an EventSource that lost its connection resume without a snapshot', async () => {
      const cuts: (() => void)[] = [];
      const dropping = eventSourceWithCuts(api(), cuts);
      onTestFinished(() => dropping.source.close());
      const seen = collectEvents(dropping.source, ['snapshot', 'created']);
      await expect.poll(() => seen.length).toBe(1);
      // The first connection is cut after its snapshot, as a network drop would.
      cuts[0]!();
      const todo = await createTodo(api(), { title: 'made while away' });
      await expect
        .poll(() => seen.map(({ event }) => event), { timeout: 8000 })
        .toEqual(['snapshot', 'created']);
      expect([seen[1]!.data, dropping.lastEventIds[1]]).toEqual([todo, seen[0]!.id]);
    }, 15000);
  });

  describe('GET /api/sse: heartbeat', () => {
    const api = useService(host, { sse: { heartbeatSeconds: 1 } });

    it('sends a ": ping" comment every heartbeatSeconds', async () => {
      const stream = await opened(api());
      await firstEvent(stream);
      expect(await stream.nextBlock()).toEqual({ comment: 'ping' });
    });
  });

  describe('GET /api/sse: clients that leave', () => {
    const api = useService(host, { sse: { heartbeatSeconds: 1 } });

    it('forgets a few hundred clients that connected and left', async () => {
      const streams = [];
      for (let i = 0; i < 300; i += 1) streams.push(await openStream(api()));
      await Promise.all(streams.map((stream) => stream.nextBlock()));
      for (const stream of streams) stream.close();
      await expect
        .poll(() => api().streamStats(), { timeout: 5000 })
        .toEqual({
          openStreams: 0,
          storeSubscribers: 0,
          heartbeatRunning: false,
        });
    }, 30000);

    it('keeps serving the clients that stay', async () => {
      const leaving = await openStream(api());
      const staying = await opened(api());
      await firstEvent(staying);
      leaving.close();
      const todo = await createTodo(api());
      expect(await staying.nextEvent()).toMatchObject({ event: 'created', data: todo });
    });
  });

  describe('GET /api/sse: the limit on open streams', () => {
    // A Durable Object hears that a client left only when a write to it fails (workers-sdk#9438),
    // at the latest at the next heartbeat: keep that short.
    const api = useService(host, { sse: { maxClients: 2, heartbeatSeconds: 1 } });

    it('answers 503 with Retry-After and CORS beyond sse.maxClients', async () => {
      await opened(api());
      await opened(api());
      const response = await api().fetch('/api/sse');
      expect([
        response.status,
        response.headers.get('content-type'),
        response.headers.get('retry-after'),
        response.headers.get('access-control-allow-origin'),
      ]).toEqual([503, 'application/problem+json; charset=utf-8', '3', '*']);
    });

    it('accepts a new client once one has left', async () => {
      const first = await openStream(api());
      await opened(api());
      first.close();
      await expect
        .poll(async () => (await api().streamStats()).openStreams, { timeout: 5000 })
        .toBe(1);
      const again = await api().fetch('/api/sse');
      await again.body?.cancel();
      expect(again.status).toBe(200);
    });
  });

  describe('GET /api/sse: shutdown', () => {
    // Node and the in-process handler end streams at shutdown; workerd, whose host stops a
    // service by evicting the object, ends them with the object.
    it('ends every open stream when the service stops', async () => {
      const service = await host.start();
      const stream = await openStream(service);
      await firstEvent(stream);
      await service.close();
      expect(await stream.nextBlock()).toBeUndefined();
    });
  });
}

/**
 * An EventSource whose connections the test can cut as a network drop would (an error, not
 * an abort, which EventSource takes as the end), recording the Last-Event-ID each connection
 * was opened with.
 */
function eventSourceWithCuts(service: TestService, cuts: (() => void)[]) {
  const lastEventIds: (string | undefined)[] = [];
  const source = eventSourceOn({
    ...service,
    fetch: async (path, init) => {
      lastEventIds.push(new Headers(init?.headers).get('last-event-id') ?? undefined);
      const response = await service.fetch(path, init);
      const { body, cut } = cuttable(response.body!);
      cuts.push(cut);
      return new Response(body, response);
    },
  });
  return { source, lastEventIds };
}

function cuttable(original: ReadableStream<Uint8Array>) {
  const reader = original.getReader();
  let stream!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream = controller;
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        // Already cut.
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const cut = () => {
    stream.error(new TypeError('network connection lost'));
    void reader.cancel().catch(() => {});
  };
  return { body, cut };
}
