import { describe, expect, it, onTestFinished } from 'vitest';
import { createTodo, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import {
  collectEvents,
  eventSourceOn,
  eventSourceWithCuts,
  firstEvent,
  opened,
  unquoted,
} from '../support/sse.ts';

/** docs/api.md, Live updates: resuming with `Last-Event-ID`, by hand and with an EventSource. */
export function eventsResumeSuite(host: TestHost) {
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
      const stream = await opened(api(), { path: `${api().paths.sse}?lastEventId=${lastEventId}` });
      expect(await firstEvent(stream)).toMatchObject({ event: 'created', data: todos[0] });
    });

    it('prefers the Last-Event-ID header to the query, as a reconnecting EventSource sends both', async () => {
      const { lastEventId, todos } = await missedThree();
      const stream = await opened(api(), {
        path: `${api().paths.sse}?lastEventId=garbage`,
        headers: { 'last-event-id': lastEventId },
      });
      expect(await firstEvent(stream)).toMatchObject({ event: 'created', data: todos[0] });
    });

    it('sends nothing but new changes to a client that missed nothing', async () => {
      const { etag } = await listState(api());
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
      const { todos } = await listState(api());
      expect(await firstEvent(stream)).toMatchObject({ event: 'snapshot', data: todos });
    });

    it('sends a snapshot for an id from an earlier run of the server', async () => {
      const earlier = await host.start();
      const stream = await opened(earlier);
      const { id: foreignId } = await firstEvent(stream);
      await earlier.close();
      await createTodo(api());
      const { todos } = await listState(api());
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
      const { etag } = await listState(api());
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
      await api().fetch(`${api().paths.todos}/${todo.id}`, { method: 'DELETE' });
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
}
