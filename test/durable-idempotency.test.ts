import { describe, expect, it } from 'vitest';
import { LISTS_PATH, listPathOf, namedListPaths } from '../src/lists/list-paths.ts';
import { expectProblem, sendJson, type TodoJson } from './support/api.ts';
import { freshFile, heldCommits, opened, sqliteService } from './support/sqlite-service.ts';
import { answerOf, keyed } from './conformance/idempotency.ts';

type Service = ReturnType<typeof sqliteService>;

const createItem = (service: Service, title: string, path = '/api/todos') =>
  service.fetch(path, keyed({ title }));

const list = async (service: Service, path = '/api/todos') =>
  (await (await service.fetch(path)).json()) as TodoJson[];

describe('Idempotency-Key with the lists kept in SQLite', () => {
  it('answers a retried item create as the first after a restart, making nothing', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const answered = await answerOf(await createItem(first, 'Buy milk'));
    const before = await list(first);
    first.app.close();
    const second = sqliteService(opened(file));
    const retry = await answerOf(await createItem(second, 'Buy milk'));
    expect([retry, await list(second)]).toEqual([answered, before]);
  });

  it('answers a retried create on a named list as the first after a restart', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const { id } = await (await first.fetch(LISTS_PATH, { method: 'POST' })).json();
    const todos = namedListPaths(id).todos;
    const answered = await answerOf(await createItem(first, 'Buy milk', todos));
    first.app.close();
    const second = sqliteService(opened(file));
    expect(await answerOf(await createItem(second, 'Buy milk', todos))).toEqual(answered);
  });

  it('refuses a reused key with another body with 422 after a restart', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    await createItem(first, 'Buy milk');
    first.app.close();
    await expectProblem(await createItem(sqliteService(opened(file)), 'Bread'), 422);
  });

  it('takes a key as new after a restart once its change is no longer kept', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file), { replayEvents: 1 });
    await createItem(first, 'Buy milk');
    await first.fetch('/api/todos', sendJson('POST', { title: 'Bread' }));
    first.app.close();
    const second = sqliteService(opened(file), { replayEvents: 1 });
    expect((await createItem(second, 'Buy milk')).status).toBe(201);
    expect(await list(second)).toHaveLength(3);
  });

  it('answers a retried list create as the first after a restart', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const answered = await answerOf(await first.fetch(LISTS_PATH, keyed({ title: 'Groceries' })));
    first.app.close();
    const retry = await sqliteService(opened(file)).fetch(
      LISTS_PATH,
      keyed({ title: 'Groceries' }),
    );
    expect(await answerOf(retry)).toEqual(answered);
  });

  it('refuses the key of a deleted list with 410 after a restart, the list staying deleted', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const { id } = await (await first.fetch(LISTS_PATH, keyed({ title: 'Groceries' }))).json();
    await first.fetch(listPathOf(id), { method: 'DELETE' });
    first.app.close();
    const second = sqliteService(opened(file));
    await expectProblem(await second.fetch(LISTS_PATH, keyed({ title: 'Groceries' })), 410);
    expect((await second.fetch(listPathOf(id))).status).toBe(404);
  });

  it('answers 409 to a retry while the first create waits for its commit', async () => {
    const db = opened(freshFile());
    const commits = heldCommits(db);
    const service = sqliteService(db, { committer: commits.committer });
    const first = createItem(service, 'Buy milk');
    await commits.asked();
    await expectProblem(await createItem(service, 'Buy milk'), 409);
    commits.commit();
    const answered = await answerOf(await first);
    expect([answered.status, await list(service)]).toEqual([201, [JSON.parse(answered.body)]]);
  });

  it('takes the key as new once the first create with it failed to commit', async () => {
    const db = opened(freshFile());
    const commits = heldCommits(db);
    const service = sqliteService(db, { committer: commits.committer });
    const first = createItem(service, 'Buy milk');
    await commits.asked();
    commits.fail(new Error('database or disk is full'));
    expect((await first).status).toBe(500);
    const retry = createItem(service, 'Buy milk');
    await commits.asked();
    commits.commit();
    expect([(await retry).status, (await list(service)).length]).toEqual([201, 1]);
  });
});
