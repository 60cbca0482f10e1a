import { beforeEach, describe, expect, it } from 'vitest';
import { LISTS_PATH } from '../../src/model/resources.ts';
import { expectProblem, sendJson } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';
import { readList } from '../support/lists.ts';
import { answerOf, BAD_KEYS, keyed } from './idempotency.ts';

/** docs/api.md, Idempotency-Key: `POST /api/lists` sent with the header. */
export function idempotentListsSuite(host: TestHost) {
  describe('Idempotency-Key on POST /api/lists', () => {
    const api = useService(host);
    // On workerd the key names the list's object, which outlives the service under test: each
    // test takes a key of its own, as a client must.
    let key = '';
    beforeEach(() => {
      key = `"${crypto.randomUUID()}"`;
    });
    const create = (title: string, sent = key) => api().fetch(LISTS_PATH, keyed({ title }, sent));

    it('answers a retry exactly as the first create was answered', async () => {
      const first = await answerOf(await create('Groceries'));
      expect([first.status, await answerOf(await create('Groceries'))]).toEqual([201, first]);
    });

    it('makes no second list on a retry: the answer names the first', async () => {
      const first = await (await create('Groceries')).json();
      const retry = await (await create('Groceries')).json();
      expect(retry.id).toBe(first.id);
    });

    it('answers a retry as the first create was, after the list was renamed', async () => {
      const firstResponse = await create('Groceries');
      const first = await answerOf(firstResponse);
      const { id } = JSON.parse(first.body);
      const { etag } = await readList(api(), id);
      const renamed = await api().fetch(
        firstResponse.headers.get('location')!,
        sendJson('PUT', { title: 'Food' }, { 'if-match': etag }),
      );
      expect(renamed.status).toBe(200);
      expect(await answerOf(await create('Groceries'))).toEqual(first);
    });

    it('refuses the key with another title with 422, changing nothing', async () => {
      const { id } = await (await create('Groceries')).json();
      const before = await readList(api(), id);
      const problem = await expectProblem(await create('Food'), 422);
      expect([problem.detail, await readList(api(), id)]).toEqual([
        expect.stringContaining('Idempotency-Key'),
        before,
      ]);
    });

    it('refuses the key of a deleted list with 410, and the list stays deleted', async () => {
      const created = await create('Groceries');
      const location = created.headers.get('location')!;
      expect((await api().fetch(location, { method: 'DELETE' })).status).toBe(204);
      await expectProblem(await create('Groceries'), 410);
      expect((await api().fetch(location)).status).toBe(404);
    });

    it('makes one list of concurrent retries, each answered 409 or as the first', async () => {
      const responses = await Promise.all(Array.from({ length: 6 }, () => create('Groceries')));
      const answers = await Promise.all(responses.map(answerOf));
      const made = answers.filter((answer) => answer.status !== 409);
      const first = answers.find((answer) => answer.status === 201)!;
      expect(made).toEqual(made.map(() => first));
    });

    it('makes a list for each of two keys', async () => {
      const one = await (await create('Groceries')).json();
      const two = await (await create('Groceries', `"${crypto.randomUUID()}"`)).json();
      expect(one.id).not.toBe(two.id);
    });

    it.each(BAD_KEYS)('refuses a key of %s with 400, making no list', async (_, key) => {
      const before = await api().countLists();
      await expectProblem(await create('Groceries', key), 400);
      expect(await api().countLists()).toBe(before);
    });
  });

  if (host.boundsLists) {
    describe('Idempotency-Key on POST /api/lists, deleted keys beyond limits.maxLists', () => {
      const maxLists = 2;
      const api = useService(host, { maxLists });
      const keys = Array.from({ length: maxLists + 1 }, () => `"${crypto.randomUUID()}"`);
      const create = (key: string) => api().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key));
      /** Makes and deletes a list with each key in turn; the id each made. */
      const makeAndDelete = async () => {
        const ids: string[] = [];
        for (const key of keys) {
          const created = await create(key);
          ids.push((await created.json()).id);
          await api().fetch(created.headers.get('location')!, { method: 'DELETE' });
        }
        return ids;
      };

      it('makes a new list, with another id, for the key of the oldest deletion', async () => {
        const [oldest] = await makeAndDelete();
        const again = await create(keys[0]!);
        expect([again.status, (await again.json()).id === oldest]).toEqual([201, false]);
      });

      it('still refuses the key of each of the latest limits.maxLists deletions with 410', async () => {
        await makeAndDelete();
        const statuses = await Promise.all(
          keys.slice(1).map(async (key) => (await create(key)).status),
        );
        expect(statuses).toEqual(keys.slice(1).map(() => 410));
      });
    });
  }
}
