import { describe, expect, it } from 'vitest';
import { base64UrlOf, bytesOfBase64Url } from '../../src/lists/list-id.ts';
import { listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { sendJson, type TodoJson } from '../support/api.ts';
import { createList, MALFORMED_ID, NEVER_MADE_ID } from '../support/lists.ts';
import { openStream } from '../support/sse.ts';
import { useWorkerd } from '../support/workerd-host.ts';

/** Every route of a list, as a probe with an id would try them. */
const probes = (id: string): [string, RequestInit][] => [
  [listPathOf(id), {}],
  [listPathOf(id), sendJson('PUT', { title: 'x' })],
  [listPathOf(id), { method: 'DELETE' }],
  [namedListPaths(id).todos, {}],
  [namedListPaths(id).todos, sendJson('POST', { title: 'x' })],
  [`${namedListPaths(id).todos}/00000000-0000-4000-8000-000000000000`, { method: 'DELETE' }],
  [namedListPaths(id).sse, {}],
];

/** A real list's id with one byte of its MAC changed: right in shape, made by nobody. */
function forged(id: string): string {
  const bytes = bytesOfBase64Url(id)!;
  bytes[20]! ^= 1;
  return base64UrlOf(bytes);
}

describe('named lists under wrangler dev, STORAGE = "memory"', () => {
  const dev = useWorkerd('named lists', { STORAGE: 'memory' });
  const service = () => dev().asService();
  const onList = (id: string) => dev().asService(namedListPaths(id));

  it('serves two lists from two objects, each holding only its own list', async () => {
    const [a, b] = [await createList(service()), await createList(service())];
    // A stream of list a, opened through the worker, is held by a's object, not by b's.
    const stream = await openStream(onList(a.id));
    await stream.nextEvent();
    const held = [
      (await dev().streamStats(a.id)).openStreams,
      (await dev().streamStats(b.id)).openStreams,
    ];
    stream.close();
    const hex = (id: string) => Buffer.from(bytesOfBase64Url(id)!).toString('hex');
    expect([held, await dev().objectId(a.id), await dev().objectId(b.id)]).toEqual([
      [1, 0],
      hex(a.id),
      hex(b.id),
    ]);
  });

  it('answers an id nobody made exactly as one whose list was deleted, and a malformed one', async () => {
    const deleted = (await createList(service())).id;
    await dev().fetch(listPathOf(deleted), { method: 'DELETE' });
    const answers = [];
    for (const id of [forged((await createList(service())).id), deleted, MALFORMED_ID]) {
      const response = await dev().fetch(namedListPaths(id).todos);
      const { instance: _, ...problem } = (await response.json()) as Record<string, unknown>;
      const headers = [...response.headers].filter(
        ([name]) => !['x-request-id', 'date', 'cf-ray'].includes(name),
      );
      answers.push({ status: response.status, problem, headers });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it.each([
    ['an id nobody made', async () => forged((await createList(service())).id)],
    ['an id of the wrong length', async () => NEVER_MADE_ID],
    ['a malformed id', async () => MALFORMED_ID],
    ['a view id nobody made', async () => 'A'.repeat(54)],
    [
      'a view id one character off a list’s',
      async () => forged((await createList(service())).viewId),
    ],
  ])('answers %s with 404 on every route without waking any object', async (_name, idOf) => {
    const id = await idOf();
    await dev().objectsAddressed();
    const statuses = [];
    for (const [path, init] of probes(id)) {
      const response = await dev().fetch(path, init);
      await response.body?.cancel();
      statuses.push(response.status);
    }
    expect([statuses, await dev().objectsAddressed()]).toEqual([probes(id).map(() => 404), 0]);
  });

  it('keeps a named list, its title and items, when its object leaves memory', async () => {
    const { id, viewId } = await createList(service(), 'Kept');
    const todo = (await (
      await dev().fetch(namedListPaths(id).todos, sendJson('POST', { title: 'milk' }))
    ).json()) as TodoJson;
    await dev().evict(id);
    const [list, todos] = [
      await dev().fetch(listPathOf(id)),
      await dev().fetch(namedListPaths(id).todos),
    ];
    expect([await list.json(), await todos.json()]).toEqual([
      { id, title: 'Kept', viewId },
      [todo],
    ]);
  });

  it('resumes a named list’s stream after its object left memory, with what was missed', async () => {
    const { id } = await createList(service());
    const stream = await openStream(onList(id));
    const { id: lastId } = await stream.nextEvent();
    stream.close();
    const missed = await dev().fetch(
      namedListPaths(id).todos,
      sendJson('POST', { title: 'missed' }),
    );
    await dev().evict(id);
    const resumed = await openStream(onList(id), { headers: { 'last-event-id': lastId } });
    const event = await resumed.nextEvent();
    resumed.close();
    expect([event.event, event.data]).toEqual(['created', await missed.json()]);
  });

  it('tells a view-only stream a rename without the edit id after its object left memory', async () => {
    const { id, viewId } = await createList(service(), 'Old');
    const stream = await openStream(onList(viewId));
    await stream.nextEvent();
    await dev().evict(id);
    await dev().fetch(listPathOf(id), sendJson('PUT', { title: 'New' }));
    const event = await stream.nextEvent();
    stream.close();
    expect([event.event, event.data]).toEqual([
      'list-renamed',
      { id: viewId, title: 'New', viewId },
    ]);
  });

  it('keeps a deleted list deleted once its object left memory', async () => {
    const { id } = await createList(service());
    await dev().fetch(listPathOf(id), { method: 'DELETE' });
    await dev().evict(id);
    const statuses = [];
    for (const [path, init] of probes(id)) {
      const response = await dev().fetch(path, init);
      await response.body?.cancel();
      statuses.push(response.status);
    }
    expect(statuses).toEqual(probes(id).map(() => 404));
  });

  it('logs no failure of the runtime', async () => {
    const { id } = await createList(service());
    await dev().fetch(listPathOf(id), { method: 'DELETE' });
    expect(dev().newFailures()).toEqual([]);
  });
});
