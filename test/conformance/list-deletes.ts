import { describe, expect, it } from 'vitest';
import { listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { createTodo } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import { createList } from '../support/lists.ts';

const encoder = new TextEncoder();

/**
 * A request whose body starts at once (a byte of JSON whitespace, so that an HTTP client sends
 * it now) and ends only when `finish` is called: until then its route waits on it.
 */
function slowly(service: TestService, path: string, method: string, json: string) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(' '));
      await finished;
      controller.enqueue(encoder.encode(json));
      controller.close();
    },
  });
  const answer = service.fetch(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
  return { answer, finish };
}

/** Long enough for a request to reach its route and wait there on its body. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

/** docs/api.md, Lists: a list deleted while requests for it are still under way. */
export function listDeletesSuite(host: TestHost) {
  describe('a list deleted while requests for it wait on their bodies', () => {
    const api = useService(host);

    /** Deletes the list `id` while `request` waits on its body, then lets the body finish. */
    async function deletedMidway(id: string, request: ReturnType<typeof slowly>) {
      await settle();
      const deleted = await api().fetch(listPathOf(id), { method: 'DELETE' });
      request.finish();
      const answer = await request.answer;
      await answer.body?.cancel();
      return { deleted: deleted.status, answer: answer.status };
    }

    /** After a delete, the list must stay gone, with nothing stored under it. */
    async function stillGone(id: string) {
      const [list, items] = [
        await api().fetch(listPathOf(id)),
        await api().fetch(namedListPaths(id).todos),
      ];
      await Promise.all([list.body?.cancel(), items.body?.cancel()]);
      return [list.status, items.status];
    }

    it('refuses an item create with 404, and stores nothing', async () => {
      const { id } = await createList(api());
      const create = slowly(api(), namedListPaths(id).todos, 'POST', '{"title":"late"}');
      expect([await deletedMidway(id, create), await stillGone(id)]).toEqual([
        { deleted: 204, answer: 404 },
        [404, 404],
      ]);
    });

    it('refuses an item replace with 404, and stores nothing', async () => {
      const { id } = await createList(api());
      const todo = await createTodo({ ...api(), paths: namedListPaths(id) });
      const replace = slowly(
        api(),
        `${namedListPaths(id).todos}/${todo.id}`,
        'PUT',
        '{"title":"late","completed":true}',
      );
      expect([await deletedMidway(id, replace), await stillGone(id)]).toEqual([
        { deleted: 204, answer: 404 },
        [404, 404],
      ]);
    });

    it('refuses a rename with 404, and stores nothing', async () => {
      const { id } = await createList(api(), 'Old');
      const rename = slowly(api(), listPathOf(id), 'PUT', '{"title":"late"}');
      expect([await deletedMidway(id, rename), await stillGone(id)]).toEqual([
        { deleted: 204, answer: 404 },
        [404, 404],
      ]);
    });

    it('deletes a list once when two deletes of it come together', async () => {
      const { id } = await createList(api());
      const statuses = await Promise.all(
        [1, 2].map(async () => {
          const response = await api().fetch(listPathOf(id), { method: 'DELETE' });
          await response.body?.cancel();
          return response.status;
        }),
      );
      expect(statuses.sort()).toEqual([204, 404]);
    });
  });
}
