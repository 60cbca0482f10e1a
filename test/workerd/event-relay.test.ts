import { beforeEach, describe, expect, it } from 'vitest';
import { namedListPaths } from '../../src/model/resources.ts';
import { createTodo, type TodoJson } from '../support/api.ts';
import type { TestService } from '../support/hosts.ts';
import { createList } from '../support/lists.ts';
import { firstEvent, openStream, sequenceOf, type StreamReader } from '../support/sse.ts';
import { useWorkerd } from '../support/workerd-host.ts';
import { TEST_PATHS } from './test-paths.ts';

const HEARTBEAT_SECONDS = 1;

/** The events a stream gets next, `count` of them, as [type, item title, sequence]. */
async function nextEvents(stream: StreamReader, count: number) {
  const events = [];
  for (let i = 0; i < count; i += 1) {
    const { event, data, id } = await stream.nextEvent();
    events.push([event, (data as TodoJson).title, sequenceOf(id)]);
  }
  return events;
}

async function openAll(service: TestService, count: number): Promise<StreamReader[]> {
  const streams = [];
  for (let i = 0; i < count; i += 1) {
    const stream = await openStream(service);
    await firstEvent(stream);
    streams.push(stream);
  }
  return streams;
}

describe.each([
  ['the default list', undefined],
  ['a named list', 'named'],
] as const)('event streams of %s on workerd, held by the worker', (_, kind) => {
  const dev = useWorkerd(`event relay ${kind}`, { SSE_HEARTBEAT_SECONDS: HEARTBEAT_SECONDS });
  let listId: string | undefined;
  let service: TestService;
  beforeEach(async () => {
    await dev().forget();
    listId = kind && (await createList(dev().asService())).id;
    service = dev().asService(listId === undefined ? undefined : namedListPaths(listId));
    dev().newFailures();
  });

  it('leaves the object no request in flight, one WebSocket a stream', async () => {
    const streams = await openAll(service, 3);
    const state = await dev().objectState(listId);
    for (const stream of streams) stream.close();
    expect([state.requestsInFlight, state.webSockets]).toEqual([0, 3]);
  });

  it('lets the object leave memory while its streams stay open, and wakes it for a change', async () => {
    const streams = await openAll(service, 2);
    await dev().leftMemory(listId);
    await createTodo(service, { title: 'after hibernation' });
    const delivered = await Promise.all(streams.map((stream) => nextEvents(stream, 1)));
    for (const stream of streams) stream.close();
    expect(delivered.map((events) => events[0]!.slice(0, 2))).toEqual([
      ['created', 'after hibernation'],
      ['created', 'after hibernation'],
    ]);
  }, 70_000);

  it('sends every stream each change made after its object was evicted, in order, once', async () => {
    const streams = await openAll(service, 3);
    await createTodo(service, { title: 'before' });
    await dev().evict(listId);
    for (const title of ['after 1', 'after 2']) await createTodo(service, { title });
    const received = await Promise.all(streams.map((stream) => nextEvents(stream, 3)));
    for (const stream of streams) stream.close();
    const first = received[0]![0]![2] as number;
    const expected = [
      ['created', 'before', first],
      ['created', 'after 1', first + 1],
      ['created', 'after 2', first + 2],
    ];
    expect(received).toEqual([expected, expected, expected]);
  });

  it('sends nothing twice across an eviction: the next event follows the last', async () => {
    const stream = (await openAll(service, 1))[0]!;
    await createTodo(service, { title: 'before' });
    await nextEvents(stream, 1);
    await dev().evict(listId);
    await createTodo(service, { title: 'after' });
    const next = await stream.nextEvent();
    stream.close();
    expect([next.event, (next.data as TodoJson).title]).toEqual(['created', 'after']);
  });

  it('closes the WebSocket of a client that left within two heartbeats', async () => {
    const [leaving] = await openAll(service, 1);
    const staying = (await openAll(service, 1))[0]!;
    leaving!.close();
    await expect
      .poll(async () => (await dev().objectState(listId)).webSockets, {
        timeout: 2 * HEARTBEAT_SECONDS * 1000 + 1000,
        interval: 100,
      })
      .toBe(1);
    staying.close();
  });

  it('sends a snapshot larger than the object’s window, and the change after it', async () => {
    // 5,000 items of about 1 KB: the object sends the rest as the worker says it was taken.
    const seed = new URLSearchParams({ count: '5000', title: 'x'.repeat(1000) });
    if (listId !== undefined) seed.set('list', listId);
    const seeded = await dev().fetch(`${TEST_PATHS.seed}?${seed}`, { method: 'POST' });
    const stream = await openStream(service);
    const snapshot = await firstEvent(stream);
    await createTodo(service, { title: 'after the snapshot' });
    const next = await stream.nextEvent();
    stream.close();
    expect([seeded.status, (snapshot.data as TodoJson[]).length, next.event]).toEqual([
      204,
      5000,
      'created',
    ]);
  });

  it('serves the stream at its path with a trailing slash, as the router matches it', async () => {
    const stream = await openStream(service, { path: `${service.paths.sse}/` });
    const first = await firstEvent(stream);
    stream.close();
    expect(first.event).toBe('snapshot');
  });

  it('logs no failure of the runtime', async () => {
    const streams = await openAll(service, 2);
    await dev().evict(listId);
    await createTodo(service);
    await Promise.all(streams.map((stream) => stream.nextEvent()));
    for (const stream of streams) stream.close();
    await new Promise((resolve) => setTimeout(resolve, 3 * HEARTBEAT_SECONDS * 1000));
    expect(dev().newFailures()).toEqual([]);
  });
});

describe('event streams of a default list kept in memory on workerd', () => {
  const dev = useWorkerd('event relay in memory', { STORAGE: 'memory' });

  it('ends the stream when the object restarts, so the client reconnects to the new list', async () => {
    const stream = (await openAll(dev().asService(), 1))[0]!;
    await createTodo(dev().asService(), { title: 'lost with the object' });
    await stream.nextEvent();
    await dev().evict();
    await createTodo(dev().asService(), { title: 'on the new list' });
    expect(await stream.nextBlock()).toBeUndefined();
  });

  it('ends the stream when the object wakes from hibernation with its list started again', async () => {
    const stream = (await openAll(dev().asService(), 1))[0]!;
    await dev().leftMemory();
    let block = await stream.nextBlock();
    while (block !== undefined && 'comment' in block) block = await stream.nextBlock();
    expect(block).toBeUndefined();
  }, 70_000);

  it('logs no failure of the runtime', () => {
    expect(dev().newFailures()).toEqual([]);
  });
});
