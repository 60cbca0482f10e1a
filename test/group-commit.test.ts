import { describe, expect, it } from 'vitest';
import { expectProblem, sendJson, type TodoJson } from './support/api.ts';
import { freshFile } from './support/fresh-file.ts';
import { heldService, opened, sqliteService } from './support/sqlite-service.ts';
import { openStream, unquoted, type SseEvent } from './support/sse.ts';

type Service = ReturnType<typeof sqliteService>;

const post = (service: Service, title: string) =>
  service.fetch('/api/todos', sendJson('POST', { title }));

const put = (service: Service, id: string, ifMatch: string, title: string) =>
  service.fetch(
    `/api/todos/${id}`,
    sendJson('PUT', { title, completed: false }, { 'if-match': ifMatch }),
  );

/** The items and their ETag, as a reader sees them. */
async function seen(service: Service) {
  const response = await service.fetch('/api/todos');
  return { etag: response.headers.get('etag'), todos: (await response.json()) as TodoJson[] };
}

/** The ETag `steps` versions after `etag` in the same run: what the next changes will have. */
function later(etag: string, steps: number): string {
  const id = unquoted(etag);
  const dot = id.lastIndexOf('.');
  return `"${id.slice(0, dot)}.${Number(id.slice(dot + 1)) + steps}"`;
}

/** What a stream tells of an event, without its item's id. */
const told = ({ id, event, data }: SseEvent) => [id, event, (data as TodoJson).title];

describe('changes that share a commit, the lists kept in SQLite', () => {
  it('shows a change to no reader and no stream before its commit, and to all after', async () => {
    const { held, service } = heldService(freshFile());
    const posted = post(service, 'pending');
    await held.asked();
    const before = await seen(service);
    const stream = await openStream(service);
    const opening = await stream.nextEvent();
    held.commit();
    const created = (await (await posted).json()) as TodoJson;
    const event = await stream.nextEvent();
    stream.close();
    expect([before.todos, opening.data, event.data, (await seen(service)).todos]).toEqual([
      [],
      [],
      created,
      [created],
    ]);
  });

  it('answers every change of a batch whose commit fails with the generic 500, and announces none', async () => {
    const file = freshFile();
    const db = opened(file);
    const service = sqliteService(db);
    const kept = (await (await post(service, 'kept')).json()) as TodoJson;
    // A real failure inside the transaction: SQLite refuses one of the batch's rows.
    db.run(
      `CREATE TRIGGER poison BEFORE INSERT ON list_changes WHEN NEW.data LIKE '%"title":"poison"%'
       BEGIN SELECT RAISE(ABORT, 'poisoned row'); END`,
    );
    const before = await seen(service);
    const stream = await openStream(service);
    await stream.nextEvent();
    const answers = await Promise.all([
      post(service, 'innocent'),
      post(service, 'poison'),
      put(service, kept.id, before.etag!, 'renamed'),
    ]);
    const problems = await Promise.all(answers.map((answer) => expectProblem(answer, 500)));
    const after = await post(service, 'after');
    const event = await stream.nextEvent();
    stream.close();
    const reopened = sqliteService(opened(file));
    expect(problems.map((problem) => problem.detail.includes('poison'))).toEqual([
      false,
      false,
      false,
    ]);
    expect([after.status, ...told(event)]).toEqual([
      201,
      unquoted(later(before.etag!, 1)),
      'created',
      'after',
    ]);
    expect((await seen(reopened)).todos.map((todo) => todo.title)).toEqual(['kept', 'after']);
  });

  it('applies two changes to one item in one batch in order, each If-Match against the version the one before left', async () => {
    const file = freshFile();
    const { held, service } = heldService(file);
    const item = post(service, 'first');
    await held.asked();
    held.commit();
    const { id } = (await (await item).json()) as TodoJson;
    const v1 = (await seen(service)).etag!;
    const stream = await openStream(service);
    await stream.nextEvent();
    // While one commit is under way, the changes made meanwhile wait together for the next.
    const blocker = post(service, 'blocker');
    await held.asked();
    const answers: Promise<Response>[] = [];
    for (const [ifMatch, title] of [
      [v1, 'second'],
      [later(v1, 2), 'third'],
      [v1, 'stale'],
    ] as const) {
      answers.push(put(service, id, ifMatch, title));
      // A turn of the event loop: the change is made, and waits, before the next is sent.
      await new Promise((resolve) => setImmediate(resolve));
    }
    held.commit();
    await blocker;
    await held.asked();
    held.commit();
    const answered = await Promise.all(answers);
    const events = [await stream.nextEvent(), await stream.nextEvent(), await stream.nextEvent()];
    stream.close();
    expect(answered.map((answer) => [answer.status, answer.headers.get('etag')])).toEqual([
      [200, later(v1, 2)],
      [200, later(v1, 3)],
      [412, null],
    ]);
    expect(events.map(told)).toEqual([
      [unquoted(later(v1, 1)), 'created', 'blocker'],
      [unquoted(later(v1, 2)), 'updated', 'second'],
      [unquoted(later(v1, 3)), 'updated', 'third'],
    ]);
    const replay = await openStream(service, { headers: { 'last-event-id': unquoted(v1) } });
    const replayed = [await replay.nextEvent(), await replay.nextEvent(), await replay.nextEvent()];
    replay.close();
    expect(replayed).toEqual(events);
    const list = await seen(service);
    expect([list.etag, list.todos.map((todo) => todo.title)]).toEqual([
      later(v1, 3),
      ['third', 'blocker'],
    ]);
    expect(await seen(sqliteService(opened(file)))).toEqual(list);
  });

  it('refuses with 404 a change to an item an earlier change of its batch deleted', async () => {
    const service = sqliteService(opened(freshFile()));
    const item = await post(service, 'doomed');
    const { id } = (await item.json()) as TodoJson;
    const [deleted, replaced] = await Promise.all([
      service.fetch(`/api/todos/${id}`, { method: 'DELETE' }),
      put(service, id, '*', 'too late'),
    ]);
    expect([deleted.status, replaced.status, (await seen(service)).todos]).toEqual([200, 404, []]);
  });

  it('answers 500, not 404, to a change refused for a delete whose commit then fails', async () => {
    const { held, service } = heldService(freshFile());
    const posted = post(service, 'survivor');
    await held.asked();
    held.commit();
    const { id } = (await (await posted).json()) as TodoJson;
    const deleted = service.fetch(`/api/todos/${id}`, { method: 'DELETE' });
    await held.asked();
    const replaced = put(service, id, '*', 'renamed');
    // A turn of the event loop, as between two commits: the PUT is refused by then, against the
    // delete still waiting for its commit, which then fails.
    await new Promise((resolve) => setImmediate(resolve));
    held.fail(new Error('disk I/O error'));
    const statuses = [(await deleted).status, (await replaced).status];
    expect([...statuses, (await seen(service)).todos.map((todo) => todo.title)]).toEqual([
      500,
      500,
      ['survivor'],
    ]);
  });
});
