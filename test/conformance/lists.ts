import { describe, expect, it } from 'vitest';
import { LISTS_PATH, listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { createTodo, expectProblem, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import { createList, MALFORMED_ID, NEVER_MADE_ID, readList } from '../support/lists.ts';
import { firstEvent, opened } from '../support/sse.ts';

const json = (value: unknown) => JSON.stringify(value);

/** Bodies `POST /api/lists` refuses, each with its status and, for a field, its pointer. */
const REFUSED_CREATES: readonly [string, number, RequestInit, string?][] = [
  ['malformed JSON', 400, sendJson('POST', '{"title": "a",}')],
  ['a JSON array', 400, sendJson('POST', '[]')],
  ['a title that is a number', 400, sendJson('POST', { title: 3 }), '/title'],
  ['a title that is null', 400, sendJson('POST', { title: null }), '/title'],
  ['a title over the limit', 400, sendJson('POST', { title: 'x'.repeat(1001) }), '/title'],
  ['an unknown key', 400, sendJson('POST', { title: 'a', owner: 'me' }), '/owner'],
  ['an id', 400, sendJson('POST', { id: 'mine' }), '/id'],
  ['a body too large', 413, sendJson('POST', json({ title: 'x'.repeat(20000) }))],
  [
    'a body with no Content-Type',
    415,
    { method: 'POST', body: new TextEncoder().encode('{"title":"a"}') },
  ],
  [
    'a body of another media type',
    415,
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Groceries' },
  ],
];

/** What a 404 for a list says, beside what differs for every request. */
async function notFoundOf(response: Response) {
  const { instance: _, ...problem } = (await expectProblem(response, 404)) as object & {
    instance?: string;
  };
  return { problem, headers: comparableHeaders(response) };
}

/** The headers of an answer, but for those that differ for every request. */
function comparableHeaders(response: Response) {
  return Object.fromEntries(
    [...response.headers].filter(([name]) => !['x-request-id', 'date'].includes(name)),
  );
}

/** A request to every route of a list, each as a client would send it. */
function everyRoute(id: string): [string, string, RequestInit][] {
  const paths = namedListPaths(id);
  const item = `${paths.todos}/00000000-0000-4000-8000-000000000000`;
  return [
    ['GET the list', listPathOf(id), {}],
    ['HEAD the list', listPathOf(id), { method: 'HEAD' }],
    ['rename the list', listPathOf(id), sendJson('PUT', { title: 'b' })],
    ['delete the list', listPathOf(id), { method: 'DELETE' }],
    ['GET its items', paths.todos, {}],
    ['create an item', paths.todos, sendJson('POST', { title: 'a' })],
    ['GET an item', item, {}],
    ['replace an item', item, sendJson('PUT', { title: 'a', completed: true })],
    ['delete an item', item, { method: 'DELETE' }],
    ['open its stream', paths.sse, {}],
  ];
}

/** docs/api.md, Lists: making, reading, renaming and deleting named lists. */
export function listsSuite(host: TestHost) {
  describe('POST /api/lists', () => {
    const api = useService(host);

    it('makes an untitled list from a request with no body', async () => {
      const response = await api().fetch(LISTS_PATH, { method: 'POST' });
      const list = await response.json();
      expect([response.status, Object.keys(list), list.title]).toEqual([
        201,
        ['id', 'title', 'viewId'],
        '',
      ]);
    });

    it('makes a list with the title sent, exactly as sent', async () => {
      expect((await createList(api(), '  Our groceries 🛒 ')).title).toBe('  Our groceries 🛒 ');
    });

    it('takes an empty JSON body as no body', async () => {
      const response = await api().fetch(LISTS_PATH, sendJson('POST', ''));
      expect([response.status, (await response.json()).title]).toEqual([201, '']);
    });

    it('gives a list an id of at least 22 base64url characters', async () => {
      expect((await createList(api())).id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    });

    it('gives every list its own id', async () => {
      const ids = new Set();
      for (let i = 0; i < 5; i += 1) ids.add((await createList(api())).id);
      expect(ids.size).toBe(5);
    });

    it('links the page of the new list, to share', async () => {
      const response = await api().fetch(LISTS_PATH, { method: 'POST' });
      const { id } = await response.json();
      expect(response.headers.get('link')).toBe(
        `</lists/${id}>; rel="alternate"; type="text/html"`,
      );
    });

    it('answers with the Location of the list, where it is served with the same ETag', async () => {
      const response = await api().fetch(LISTS_PATH, sendJson('POST', { title: 'a' }));
      const created = await response.json();
      const location = response.headers.get('location')!;
      const read = await api().fetch(location);
      expect([location, await read.json(), read.headers.get('etag')]).toEqual([
        listPathOf(created.id),
        created,
        response.headers.get('etag'),
      ]);
    });

    it.each(REFUSED_CREATES)(
      'refuses %s with %i and makes no list',
      async (_name, status, init, pointer) => {
        const before = await api().countLists();
        const problem = await expectProblem(await api().fetch(LISTS_PATH, init), status);
        if (pointer) expect(problem.errors?.map((error) => error.pointer)).toEqual([pointer]);
        expect(await api().countLists()).toBe(before);
      },
    );

    it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'])(
      'answers %s /api/lists with 405 and Allow: POST, OPTIONS',
      async (method) => {
        const response = await api().fetch(LISTS_PATH, { method });
        await response.body?.cancel();
        expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST, OPTIONS']);
      },
    );
  });

  if (host.boundsLists) {
    describe('POST /api/lists at limits.maxLists', () => {
      const api = useService(host, { maxLists: 2 });

      it('answers 507 naming the limit, and makes no list', async () => {
        await createList(api());
        await createList(api());
        const problem = await expectProblem(await api().fetch(LISTS_PATH, { method: 'POST' }), 507);
        expect([problem.detail, await api().countLists()]).toEqual([
          expect.stringContaining('limits.maxLists'),
          2,
        ]);
      });

      it('makes a list again once one is deleted', async () => {
        const first = await createList(api());
        await createList(api());
        await api().fetch(listPathOf(first.id), { method: 'DELETE' });
        expect((await api().fetch(LISTS_PATH, { method: 'POST' })).status).toBe(201);
      });
    });
  }

  describe('GET /api/lists/{id}', () => {
    const api = useService(host);

    it('answers 200 with exactly the id, the title and the view id, and an ETag', async () => {
      const created = await createList(api(), 'Chores');
      expect(await readList(api(), created.id)).toEqual({
        list: { id: created.id, title: 'Chores', viewId: created.viewId },
        etag: created.etag,
      });
    });

    it('answers 304 to If-None-Match with its ETag', async () => {
      const { id, etag } = await createList(api());
      const response = await api().fetch(listPathOf(id), { headers: { 'if-none-match': etag } });
      expect([response.status, await response.text()]).toEqual([304, '']);
    });

    it('answers HEAD like GET, without a body', async () => {
      const { id, etag } = await createList(api());
      const response = await api().fetch(listPathOf(id), { method: 'HEAD' });
      expect([response.status, response.headers.get('etag'), await response.text()]).toEqual([
        200,
        etag,
        '',
      ]);
    });
  });

  describe('PUT /api/lists/{id}', () => {
    const api = useService(host);
    const rename = (service: TestService, id: string, body: unknown, headers = {}) =>
      service.fetch(listPathOf(id), sendJson('PUT', body, headers));

    it('renames the list and answers 200 with it and its new ETag', async () => {
      const { id, etag, viewId } = await createList(api(), 'Old');
      const response = await rename(api(), id, { title: 'New' });
      const newEtag = response.headers.get('etag');
      expect([response.status, await response.json(), newEtag === etag]).toEqual([
        200,
        { id, title: 'New', viewId },
        false,
      ]);
      expect(await readList(api(), id)).toEqual({
        list: { id, title: 'New', viewId },
        etag: newEtag,
      });
    });

    it('accepts a body that repeats the id of the path, and an empty title', async () => {
      const { id } = await createList(api(), 'Old');
      expect((await rename(api(), id, { id, title: '' })).status).toBe(200);
    });

    it('renames under If-Match of the current ETag', async () => {
      const { id, etag } = await createList(api());
      expect((await rename(api(), id, { title: 'a' }, { 'if-match': etag })).status).toBe(200);
    });

    it.each([
      ['a stale If-Match', 412, { title: 'b' }, { 'if-match': '"stale.1"' }],
      ['no title', 400, {}, {}],
      ['a title that is not a string', 400, { title: false }, {}],
      ['a title over the limit', 400, { title: 'x'.repeat(1001) }, {}],
      ['an unknown key', 400, { title: 'b', colour: 'red' }, {}],
      ['another id', 400, { id: NEVER_MADE_ID, title: 'b' }, {}],
      ['malformed JSON', 400, '{"title": "b",}', {}],
      ['a JSON array', 400, '["b"]', {}],
      ['a body too large', 413, { title: 'x'.repeat(20000) }, {}],
    ])(
      'refuses %s with %i, and changes and announces nothing',
      async (_name, status, body, headers) => {
        const { id } = await createList(api(), 'Kept');
        const items = { ...api(), paths: namedListPaths(id) };
        const before = [await readList(api(), id), await listState(items)];
        const stream = await opened(api(), { path: namedListPaths(id).sse });
        await firstEvent(stream);
        await expectProblem(await rename(api(), id, body, headers), status);
        const marker = await createTodo(items, { title: 'the next change' });
        expect(await stream.nextEvent()).toMatchObject({ event: 'created', data: marker });
        expect([await readList(api(), id), (await listState(items)).todos]).toEqual([
          before[0],
          [marker],
        ]);
      },
    );

    it('refuses a body not sent as JSON with 415 and changes nothing', async () => {
      const { id } = await createList(api(), 'Kept');
      const before = await readList(api(), id);
      const response = await api().fetch(listPathOf(id), { method: 'PUT', body: '{"title":"b"}' });
      await expectProblem(response, 415);
      expect(await readList(api(), id)).toEqual(before);
    });

    it('answers PATCH with 405 and the methods of a list', async () => {
      const { id } = await createList(api());
      const response = await api().fetch(listPathOf(id), { method: 'PATCH' });
      await response.body?.cancel();
      expect([response.status, response.headers.get('allow')]).toEqual([
        405,
        'GET, HEAD, PUT, DELETE, OPTIONS',
      ]);
    });
  });

  describe('DELETE /api/lists/{id}', () => {
    const api = useService(host);

    it('answers 204 with no body', async () => {
      const { id } = await createList(api());
      const response = await api().fetch(listPathOf(id), { method: 'DELETE' });
      expect([response.status, await response.text()]).toEqual([204, '']);
    });

    it.each(everyRoute(NEVER_MADE_ID).map(([name]) => name))(
      'answers %s of a deleted list with 404',
      async (name) => {
        const { id } = await createList(api());
        await createTodo({ ...api(), paths: namedListPaths(id) });
        await api().fetch(listPathOf(id), { method: 'DELETE' });
        const [, path, init] = everyRoute(id).find(([route]) => route === name)!;
        const response = await api().fetch(path, init);
        expect(response.status).toBe(404);
        await response.body?.cancel();
      },
    );

    it('refuses a stale If-Match with 412 and keeps the list', async () => {
      const { id } = await createList(api(), 'Kept');
      const response = await api().fetch(listPathOf(id), {
        method: 'DELETE',
        headers: { 'if-match': '"stale.1"' },
      });
      await expectProblem(response, 412);
      expect((await readList(api(), id)).list.title).toBe('Kept');
    });

    it('leaves the default list and other lists as they were', async () => {
      await createTodo(api());
      const kept = await createList(api());
      await createTodo({ ...api(), paths: namedListPaths(kept.id) }, { title: 'kept' });
      const before = [
        await listState(api()),
        await listState({ ...api(), paths: namedListPaths(kept.id) }),
      ];
      const gone = await createList(api());
      await api().fetch(listPathOf(gone.id), { method: 'DELETE' });
      expect([
        await listState(api()),
        await listState({ ...api(), paths: namedListPaths(kept.id) }),
      ]).toEqual(before);
    });
  });

  describe('ids that name no list', () => {
    const api = useService(host);

    it.each(everyRoute(NEVER_MADE_ID).map(([name]) => name))(
      'answers %s with the same 404 for an id never made, deleted, or malformed',
      async (name) => {
        const deleted = await createList(api());
        await api().fetch(listPathOf(deleted.id), { method: 'DELETE' });
        const answers = [];
        for (const id of [NEVER_MADE_ID, deleted.id, MALFORMED_ID]) {
          const [, path, init] = everyRoute(id).find(([route]) => route === name)!;
          const response = await api().fetch(path, init);
          answers.push(
            init.method === 'HEAD'
              ? { status: response.status, headers: comparableHeaders(response) }
              : await notFoundOf(response),
          );
        }
        expect(answers[1]).toEqual(answers[0]);
        expect(answers[2]).toEqual(answers[0]);
      },
    );

    it.each([
      ['a preflight', { method: 'OPTIONS', headers: { 'access-control-request-method': 'PUT' } }],
      ['a method the route does not serve', { method: 'PATCH' }],
    ])('answers %s of a list the same whatever its id', async (_name, init) => {
      const [made, deleted] = [await createList(api()), await createList(api())];
      await api().fetch(listPathOf(deleted.id), { method: 'DELETE' });
      const answers = [];
      for (const id of [made.id, NEVER_MADE_ID, deleted.id, MALFORMED_ID]) {
        for (const path of [listPathOf(id), namedListPaths(id).todos, namedListPaths(id).sse]) {
          const response = await api().fetch(path, init);
          const { instance: _, ...body } = response.headers.get('content-type')?.includes('json')
            ? ((await response.json()) as Record<string, unknown>)
            : {};
          answers.push({
            path: path.replace(id, '{id}'),
            status: response.status,
            body,
            headers: comparableHeaders(response),
          });
        }
      }
      const first = answers.slice(0, 3);
      expect(answers).toEqual([...first, ...first, ...first, ...first]);
    });

    it('says no list has the id', async () => {
      const problem = await expectProblem(await api().fetch(listPathOf(NEVER_MADE_ID)), 404);
      expect(problem.detail).toBe('No list has this id.');
    });
  });
}
