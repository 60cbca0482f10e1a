import { describe, expect, it } from 'vitest';
import { LISTS_PATH, listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { expectProblem, MISSING_ID, sendJson, type TodoJson } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import { createList, readList } from '../support/lists.ts';
import { firstEvent, opened, unquoted } from '../support/sse.ts';

const SOME_ITEM = { title: 'Milk', completed: false };

/** A list with two items, its edit id and its view id. */
async function sharedList(service: TestService) {
  const list = await createList(service, 'Groceries');
  const todos = namedListPaths(list.id).todos;
  const items: TodoJson[] = [];
  for (const title of ['Milk', 'Eggs']) {
    const response = await service.fetch(todos, sendJson('POST', { title }));
    items.push((await response.json()) as TodoJson);
  }
  return { ...list, items };
}

/** Every read of a list's items, as a path under its id; the `etag` ones send If-None-Match. */
const READS: readonly [string, (id: string, item: TodoJson) => string, RequestInit][] = [
  ['GET its items', (id) => namedListPaths(id).todos, {}],
  ['HEAD its items', (id) => namedListPaths(id).todos, { method: 'HEAD' }],
  ['GET an item', (id, item) => `${namedListPaths(id).todos}/${item.id}`, {}],
  ['HEAD an item', (id, item) => `${namedListPaths(id).todos}/${item.id}`, { method: 'HEAD' }],
  ['GET an item nobody made', (id) => `${namedListPaths(id).todos}/${MISSING_ID}`, {}],
  ['OPTIONS its items', (id) => namedListPaths(id).todos, { method: 'OPTIONS' }],
  ['PATCH the list', (id) => listPathOf(id), { method: 'PATCH' }],
];

/** Every change, each refused through a view id. */
const CHANGES: readonly [string, (id: string, item: TodoJson) => [string, RequestInit]][] = [
  ['create an item', (id) => [namedListPaths(id).todos, sendJson('POST', { title: 'x' })]],
  [
    'replace an item',
    (id, item) => [`${namedListPaths(id).todos}/${item.id}`, sendJson('PUT', SOME_ITEM)],
  ],
  [
    'delete an item',
    (id, item) => [`${namedListPaths(id).todos}/${item.id}`, { method: 'DELETE' }],
  ],
  ['rename the list', (id) => [listPathOf(id), sendJson('PUT', { title: 'Mine now' })]],
  ['delete the list', (id) => [listPathOf(id), { method: 'DELETE' }]],
];

/** An answer as a client sees it, but for what differs on every request (a problem's instance). */
async function seen(response: Response) {
  const headers = [...response.headers].filter(
    ([name]) => !['x-request-id', 'date'].includes(name),
  );
  const body = (await response.text()).replace(/"instance":"[^"]*"/, '');
  return { status: response.status, headers: Object.fromEntries(headers), body };
}

/** docs/api.md, View-only links: a list read, and never changed, through its view id. */
export function viewLinksSuite(host: TestHost) {
  describe('a list’s view id', () => {
    const api = useService(host);

    it('is made with the list, unlike its edit id, and is at least 32 base64url characters', async () => {
      const { id, viewId } = await createList(api());
      expect([viewId === id, /^[A-Za-z0-9_-]{32,}$/.test(viewId)]).toEqual([false, true]);
    });

    it('reads the list with the view id in place of the edit id', async () => {
      const { id, viewId, etag } = await createList(api(), 'Groceries');
      const response = await api().fetch(listPathOf(viewId));
      const body = await response.text();
      expect([response.status, JSON.parse(body), response.headers.get('etag')]).toEqual([
        200,
        { id: viewId, title: 'Groceries', viewId },
        etag,
      ]);
      expect(body.includes(id)).toBe(false);
    });

    it('links the view-only page of the list, never the edit page', async () => {
      const { viewId } = await createList(api());
      const response = await api().fetch(listPathOf(viewId), { method: 'HEAD' });
      expect([response.status, response.headers.get('link')]).toEqual([
        200,
        `</lists/${viewId}>; rel="alternate"; type="text/html"`,
      ]);
    });

    it.each(READS)('answers %s as the edit id does', async (_, pathOf, init) => {
      const { id, viewId, items } = await sharedList(api());
      const throughEdit = await seen(await api().fetch(pathOf(id, items[0]!), init));
      const throughView = await seen(await api().fetch(pathOf(viewId, items[0]!), init));
      expect(throughView).toEqual(throughEdit);
    });

    it('answers If-None-Match with 304, as the edit id does', async () => {
      const { viewId } = await sharedList(api());
      const { headers } = await api().fetch(namedListPaths(viewId).todos);
      const etag = headers.get('etag')!;
      const again = await api().fetch(namedListPaths(viewId).todos, {
        headers: { 'if-none-match': etag },
      });
      expect([again.status, again.headers.get('etag')]).toEqual([304, etag]);
    });

    it.each(CHANGES)('refuses to %s with 403, and changes nothing', async (_, requestOf) => {
      const { id, viewId, items } = await sharedList(api());
      const before = await Promise.all([
        readList(api(), id),
        api().fetch(namedListPaths(id).todos),
      ]);
      const [path, init] = requestOf(viewId, items[0]!);
      const problem = await expectProblem(await api().fetch(path, init), 403);
      expect(problem.detail).toMatch(/only reads/);
      const after = await Promise.all([readList(api(), id), api().fetch(namedListPaths(id).todos)]);
      expect([after[0], await seen(after[1])]).toEqual([before[0], await seen(before[1])]);
    });

    it('titles its refusal of a change "Forbidden", the status phrase', async () => {
      const { viewId, items } = await sharedList(api());
      const [path, init] = CHANGES[0]![1](viewId, items[0]!);
      expect((await expectProblem(await api().fetch(path, init), 403)).title).toBe('Forbidden');
    });

    it('sends no event for a change it refused', async () => {
      const { id, viewId, items } = await sharedList(api());
      const stream = await opened(api(), { path: namedListPaths(id).sse });
      await firstEvent(stream);
      for (const [, requestOf] of CHANGES) await api().fetch(...requestOf(viewId, items[0]!));
      await api().fetch(namedListPaths(id).todos, sendJson('POST', { title: 'Bread' }));
      expect(await stream.nextEvent()).toMatchObject({
        event: 'created',
        data: { title: 'Bread' },
      });
    });

    it('streams the same snapshot and changes as the edit id', async () => {
      const { id, viewId } = await sharedList(api());
      const viaEdit = await opened(api(), { path: namedListPaths(id).sse });
      const viaView = await opened(api(), { path: namedListPaths(viewId).sse });
      const snapshots = [await firstEvent(viaEdit), await firstEvent(viaView)];
      await api().fetch(namedListPaths(id).todos, sendJson('POST', { title: 'Bread' }));
      expect([await viaView.nextEvent(), snapshots[1]]).toEqual([
        await viaEdit.nextEvent(),
        snapshots[0],
      ]);
    });

    it('streams a rename with the view id in place of the edit id', async () => {
      const { id, viewId } = await createList(api(), 'Old');
      const stream = await opened(api(), { path: namedListPaths(viewId).sse });
      await firstEvent(stream);
      const response = await api().fetch(listPathOf(id), sendJson('PUT', { title: 'New' }));
      expect(await stream.nextEvent()).toEqual({
        id: unquoted(response.headers.get('etag')!),
        event: 'list-renamed',
        data: { id: viewId, title: 'New', viewId },
      });
    });

    it('replays a rename to a client that resumes through the view id, without the edit id', async () => {
      const { id, viewId, etag } = await createList(api(), 'Old');
      await api().fetch(listPathOf(id), sendJson('PUT', { title: 'New' }));
      const stream = await opened(api(), {
        path: namedListPaths(viewId).sse,
        headers: { 'last-event-id': unquoted(etag) },
      });
      await stream.nextBlock();
      expect(await stream.nextEvent()).toMatchObject({
        event: 'list-renamed',
        data: { id: viewId, title: 'New', viewId },
      });
    });

    it('ends its streams with a list-deleted event that holds no edit id', async () => {
      const { id, viewId } = await createList(api(), 'Gone');
      const stream = await opened(api(), { path: namedListPaths(viewId).sse });
      await firstEvent(stream);
      await api().fetch(listPathOf(id), { method: 'DELETE' });
      expect([await stream.nextBlock(), await stream.nextBlock()]).toEqual([
        {
          id: undefined,
          event: 'list-deleted',
          data: JSON.stringify({ id: viewId, title: 'Gone', viewId }),
        },
        undefined,
      ]);
    });

    it('names no list once the list is deleted', async () => {
      const { id, viewId } = await createList(api());
      await api().fetch(listPathOf(id), { method: 'DELETE' });
      await expectProblem(await api().fetch(listPathOf(viewId)), 404);
    });

    it('is not one of another list: each list has its own', async () => {
      const [first, second] = [await createList(api()), await createList(api())];
      expect(first.viewId).not.toBe(second.viewId);
    });

    it('answers a made-up view id as any id that names no list', async () => {
      const madeUp = 'A'.repeat(54);
      const response = await api().fetch(listPathOf(madeUp));
      expect((await expectProblem(response, 404)).detail).toBe('No list has this id.');
    });

    it('comes back the same from a create retried with its Idempotency-Key', async () => {
      const create = () =>
        api().fetch(LISTS_PATH, sendJson('POST', { title: 'a' }, { 'idempotency-key': 'view-1' }));
      const [first, again] = [await (await create()).json(), await (await create()).json()];
      expect(again).toEqual(first);
    });
  });
}
