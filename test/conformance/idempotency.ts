import { describe, expect, it } from 'vitest';
import { namedListPaths } from '../../src/model/resources.ts';
import { createTodo, expectProblem, sendJson, listState, type TodoJson } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import { createList } from '../support/lists.ts';
import { firstEvent, opened } from '../support/sse.ts';

const KEY = '"5b1f7a9e-4c1d-4f0e-9a57-2f3b8d6c1e42"';

/** `Idempotency-Key` values refused with 400, and why. */
export const BAD_KEYS: readonly [string, string][] = [
  ['an empty string', '""'],
  ['an empty token', ''],
  ['a string of 256 characters', `"${'k'.repeat(256)}"`],
  ['a token of 256 characters', 'k'.repeat(256)],
  ['a character outside ASCII', '"clé"'],
  ['a tab', '"a\tb"'],
  ['an unquoted value that is no token', 'a key'],
  ['an escape other than \\" and \\\\', '"a\\nb"'],
  ['an unterminated string', '"abc'],
  ['a list of two strings', '"a", "b"'],
  ['parameters', '"abc";expires=1'],
  ['a byte sequence', ':aGk=:'],
];

/** A create sent with the key, as a client sends it. */
export const keyed = (body: unknown, key = KEY) =>
  sendJson('POST', body, { 'idempotency-key': key });

/** What a client may rely on being the same in a replayed answer. */
export async function answerOf(response: Response) {
  const { headers } = response;
  return {
    status: response.status,
    body: await response.text(),
    contentType: headers.get('content-type'),
    location: headers.get('location'),
    etag: headers.get('etag'),
    link: headers.get('link'),
  };
}

async function create(service: TestService, body: unknown, key = KEY) {
  return service.fetch(service.paths.todos, keyed(body, key));
}

/** docs/api.md, Idempotency-Key: creates of items sent with the header. */
export function idempotencySuite(host: TestHost) {
  describe('Idempotency-Key on POST of an item', () => {
    const api = useService(host);

    it('answers a retry exactly as the first create was answered', async () => {
      const first = await answerOf(await create(api(), { title: 'Buy milk' }));
      const retry = await answerOf(await create(api(), { title: 'Buy milk' }));
      expect([first.status, retry]).toEqual([201, first]);
    });

    it('makes no second item on a retry', async () => {
      await create(api(), { title: 'Buy milk' });
      const before = await listState(api());
      await create(api(), { title: 'Buy milk' });
      expect(await listState(api())).toEqual(before);
    });

    it('sends no second event on a retry', async () => {
      const stream = await opened(api());
      await firstEvent(stream);
      await create(api(), { title: 'Buy milk' });
      await create(api(), { title: 'Buy milk' });
      const next = await createTodo(api(), { title: 'Bread' });
      const events = [await stream.nextEvent(), await stream.nextEvent()];
      expect(events.map(({ event, data }) => [event, (data as TodoJson).title])).toEqual([
        ['created', 'Buy milk'],
        ['created', next.title],
      ]);
    });

    it('takes the same create written another way as the same body', async () => {
      const first = await answerOf(await create(api(), { title: 'Buy milk' }));
      const retry = await create(api(), '{ "completed" : false, "title" : "Buy milk" }');
      expect(await answerOf(retry)).toEqual(first);
    });

    it('reads a key sent as a token as the same key sent as a string', async () => {
      const first = await answerOf(await create(api(), { title: 'a' }, 'abc:1/x'));
      expect(await answerOf(await create(api(), { title: 'a' }, '"abc:1/x"'))).toEqual(first);
    });

    it('answers a retry as the first create was, after the item changed', async () => {
      const firstResponse = await create(api(), { title: 'Buy milk' });
      const first = await answerOf(firstResponse);
      const location = firstResponse.headers.get('location')!;
      const replaced = await api().fetch(
        location,
        sendJson('PUT', { title: 'b', completed: true }),
      );
      expect(replaced.status).toBe(200);
      expect(await answerOf(await create(api(), { title: 'Buy milk' }))).toEqual(first);
    });

    it('refuses the key with another body with 422, changing nothing', async () => {
      await create(api(), { title: 'Buy milk' });
      const before = await listState(api());
      const problem = await expectProblem(await create(api(), { title: 'Bread' }), 422);
      expect([problem.detail, await listState(api())]).toEqual([
        expect.stringContaining('Idempotency-Key'),
        before,
      ]);
    });

    it('makes one item of concurrent retries, each answered 409 or as the first', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => create(api(), { title: 'Buy milk' })),
      );
      const answers = await Promise.all(responses.map(answerOf));
      const made = answers.find((answer) => answer.status === 201)!;
      const others = answers.filter((answer) => answer.status !== 409);
      expect([
        others.every((answer) => answer.body === made.body),
        (await listState(api())).todos,
      ]).toEqual([true, [JSON.parse(made.body)]]);
    });

    it('sends one event for concurrent retries', async () => {
      const stream = await opened(api());
      await firstEvent(stream);
      await Promise.all(Array.from({ length: 8 }, () => create(api(), { title: 'Buy milk' })));
      await createTodo(api(), { title: 'Bread' });
      const events = [await stream.nextEvent(), await stream.nextEvent()];
      expect(events.map(({ data }) => (data as TodoJson).title)).toEqual(['Buy milk', 'Bread']);
    });

    it('makes an item for each of two keys', async () => {
      await create(api(), { title: 'Buy milk' }, '"one"');
      await create(api(), { title: 'Buy milk' }, '"two"');
      expect((await listState(api())).todos).toHaveLength(2);
    });

    it('makes an item for every create sent without the key', async () => {
      await createTodo(api(), { title: 'Buy milk' });
      await createTodo(api(), { title: 'Buy milk' });
      expect((await listState(api())).todos).toHaveLength(2);
    });

    it.each(BAD_KEYS)(
      'refuses a key of %s with 400 naming the header, changing nothing',
      async (_, key) => {
        const before = await listState(api());
        const problem = await expectProblem(await create(api(), { title: 'a' }, key), 400);
        expect([problem.detail, await listState(api())]).toEqual([
          expect.stringMatching(/^Idempotency-Key must be one Structured Field string/),
          before,
        ]);
      },
    );

    it('refuses a key sent on two header lines with 400, changing nothing', async () => {
      const headers = new Headers({ 'content-type': 'application/json' });
      headers.append('idempotency-key', '"a"');
      headers.append('idempotency-key', '"a"');
      const before = await listState(api());
      const init = { method: 'POST', headers, body: '{"title":"a"}' };
      await expectProblem(await api().fetch(api().paths.todos, init), 400);
      expect(await listState(api())).toEqual(before);
    });

    it('reads an unquoted UUID that starts with a digit as the same key quoted', async () => {
      const uuid = '8e0f6c1a-3b1d-4c55-9a4e-2f7d0c9b6a11';
      const first = await answerOf(await create(api(), { title: 'a' }, uuid));
      expect([
        first.status,
        await answerOf(await create(api(), { title: 'a' }, `"${uuid}"`)),
      ]).toEqual([201, first]);
    });

    it('takes a key of 255 characters', async () => {
      expect((await create(api(), { title: 'a' }, `"${'k'.repeat(255)}"`)).status).toBe(201);
    });
  });

  // A key outlives the changes kept for clients that resume: one later change past them.
  describe.each([0, 2])('Idempotency-Key with sse.replayEvents %i', (replayEvents) => {
    const api = useService(host, { sse: { replayEvents } });

    /** Makes one more item than the list keeps changes for resuming clients. */
    async function changesPastTheKept() {
      for (let change = 0; change <= replayEvents; change += 1) {
        await createTodo(api(), { title: `Bread ${change}` });
      }
    }

    it('answers a retry as the first after sse.replayEvents + 1 later changes', async () => {
      const first = await answerOf(await create(api(), { title: 'Buy milk' }));
      await changesPastTheKept();
      expect(await answerOf(await create(api(), { title: 'Buy milk' }))).toEqual(first);
    });

    it('makes no second item on a retry after sse.replayEvents + 1 later changes', async () => {
      await create(api(), { title: 'Buy milk' });
      await changesPastTheKept();
      await create(api(), { title: 'Buy milk' });
      expect((await listState(api())).todos).toHaveLength(replayEvents + 2);
    });
  });

  describe('Idempotency-Key beyond the most keys a list keeps, limits.maxItems', () => {
    const api = useService(host, { limits: { maxItems: 2 } });

    /** Makes and deletes an item with each key in turn: the list then holds none. */
    async function madeAndDeleted(keys: readonly string[]) {
      for (const key of keys) {
        const created = await create(api(), { title: 'Buy milk' }, key);
        const location = created.headers.get('location')!;
        expect((await api().fetch(location, { method: 'DELETE' })).status).toBe(200);
      }
    }

    it('forgets the oldest key first: a retry with it makes a new item', async () => {
      const first = await answerOf(await create(api(), { title: 'Buy milk' }, '"k1"'));
      await api().fetch(first.location!, { method: 'DELETE' });
      await madeAndDeleted(['"k2"', '"k3"']);
      const again = await answerOf(await create(api(), { title: 'Buy milk' }, '"k1"'));
      expect([again.status, again.location === first.location]).toEqual([201, false]);
    });

    it('still answers a retry with each of the latest limits.maxItems keys as the first', async () => {
      await madeAndDeleted(['"k1"']);
      const kept = [];
      for (const key of ['"k2"', '"k3"']) {
        kept.push(await answerOf(await create(api(), { title: 'Buy milk' }, key)));
      }
      const retries = [];
      for (const key of ['"k2"', '"k3"']) {
        retries.push(await answerOf(await create(api(), { title: 'Buy milk' }, key)));
      }
      expect(retries).toEqual(kept);
    });
  });

  if (!host.onNamedList) {
    describe('Idempotency-Key on items of two lists', () => {
      const api = useService(host);

      it('keeps keys apart per list: the same key makes an item on each', async () => {
        const other = namedListPaths((await createList(api(), 'Other')).id).todos;
        await create(api(), { title: 'Buy milk' });
        expect((await api().fetch(other, keyed({ title: 'Buy milk' }))).status).toBe(201);
        const theirs = (await (await api().fetch(other)).json()) as TodoJson[];
        expect([(await listState(api())).todos.length, theirs.length]).toEqual([1, 1]);
      });
    });
  }
}
